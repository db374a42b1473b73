/**
 * The content editor's backend refuses, with 400 naming the field and
 * writing nothing: YAML aliases, anchors and tags, oversized frontmatter and
 * bodies, inherited property names as fields, raw HTML in the Markdown and
 * in text fields, links to anything but https/http/mailto/tel or a relative
 * address (also when written with character references), and practice
 * facts that break the admin text rules or are no phone number or email
 * address (docs/decisions/031-content-editor-second-pass.md).
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import content from '../../netlify/functions/admin-content';
import { onContentSaved } from '../../src/server/content/published.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { setEnv } from '../helpers/env';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const HOME_DE = 'src/content/de/home.md';
const PRACTICE = 'src/content/practice.json';

describe.each(databaseKinds)('content editor refusals on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let anna: TestUser;
  let root: string;
  let restoreEnv: () => void;
  const saved: string[][] = [];
  let stopListening: () => void;
  const asAnna = asAdmin(() => anna);
  const post = (body: unknown) => asAnna(content, '/api/admin/content', { method: 'POST', body });
  const file = (p: string) => readFile(path.join(root, p), 'utf8');
  const entryOf = async (p: string) => (await post({ action: 'getEntry', params: { path: p } })).json as { data: string; file: { path: string; id: string } };
  const save = (p: string, raw: string, sha: string) => post({ action: 'persistEntry', params: { dataFiles: [{ path: p, raw, sha }] } });

  beforeAll(async () => {
    anna = await createAdmin(t.db, { email: `anna-refusals-${kind}@example.org` });
    stopListening = onContentSaved((paths) => saved.push(paths));
  });
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'praxis-content-'));
    await cp('src/content', path.join(root, 'src/content'), { recursive: true });
    restoreEnv = setEnv({ CONTENT_ROOT: root });
    saved.length = 0;
  });
  afterEach(async () => {
    restoreEnv();
    await rm(root, { recursive: true, force: true });
  });
  afterAll(async () => {
    stopListening();
  });

  async function expectRefused(p: string, raw: string, sha: string, errors: Record<string, string[]>, detail?: RegExp) {
    const before = await file(p);
    const started = Date.now();
    const res = await save(p, raw, sha);
    expect(res.status, res.text).toBe(400);
    expect(res.json.type).toBe('invalid-input');
    expect(res.json.errors).toEqual(errors);
    if (detail) expect(res.json.detail).toMatch(detail);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.text.length).toBeLessThan(5000);
    expect(await file(p)).toBe(before);
    expect(saved).toEqual([]);
  }

  it('refuses YAML aliases and anchors, quickly and with a small answer (an alias bomb)', async () => {
    const de = await entryOf(HOME_DE);
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) levels.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`);
    const bomb = de.data.replace(/^---\n/, `---\n${levels.join('\n')}\n`);
    await expectRefused(HOME_DE, bomb, de.file.id, { 'de/home': ['content.errors.yamlAlias'] }, /YAML-Verweise/);
    // One anchor and one alias on real fields are refused the same way.
    const aliased = de.data.replace('  heading: Ihre Hausarztpraxis in Düsseldorf', '  heading: &h Ihre Hausarztpraxis in Düsseldorf').replace(/  callLabel: .*/, '  callLabel: *h');
    await expectRefused(HOME_DE, aliased, de.file.id, { 'de/home': ['content.errors.yamlAlias'] });
    const tagged = de.data.replace('  callLabel: Anrufen', '  callLabel: !!str Anrufen');
    await expectRefused(HOME_DE, tagged, de.file.id, { 'de/home': ['content.errors.yamlAlias'] });
  });

  it('refuses deeply nested YAML with 400, not a stack overflow', async () => {
    const de = await entryOf(HOME_DE);
    const deep = de.data.replace(/^---\n/, `---\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    const res = await save(HOME_DE, deep, de.file.id);
    expect(res.status).toBe(400);
    expect(await file(HOME_DE)).toBe(de.data);
  });

  it('refuses an oversized frontmatter and body', async () => {
    const de = await entryOf(HOME_DE);
    const bigFront = de.data.replace(/  callLabel: .*/, `  callLabel: ${'A'.repeat(40_000)}`);
    await expectRefused(HOME_DE, bigFront, de.file.id, { 'de/home': ['content.errors.tooLarge'] }, /Kopfbereich ist zu groß/);
    const bigBody = `${de.data}\n${'Langer Text. '.repeat(9000)}\n`;
    await expectRefused(HOME_DE, bigBody, de.file.id, { 'de/home.body': ['content.errors.tooLarge'] }, /Text der Seite ist zu lang/);
  });

  it('treats __proto__, constructor, prototype and other inherited names as unknown fields', async () => {
    const de = await entryOf(HOME_DE);
    for (const key of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
      const top = de.data.replace(/^---\n/, `---\n${key}:\n  polluted: yes\n`);
      await expectRefused(HOME_DE, top, de.file.id, { [`de/home.${key}`]: ['content.errors.unknownField'] }, /kein bekanntes Feld/);
      const nested = de.data.replace('hero:\n', `hero:\n  ${key}: x\n`);
      await expectRefused(HOME_DE, nested, de.file.id, { [`de/home.hero.${key}`]: ['content.errors.unknownField'] });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses raw HTML in the Markdown and in a heading, naming the field', async () => {
    const de = await entryOf(HOME_DE);
    for (const snippet of ['<b>fett</b>', '<!-- Kommentar -->', '<div>Block</div>', '<a href="https://example.org">x</a>']) {
      await expectRefused(HOME_DE, `${de.data}\nText ${snippet}\n`, de.file.id, { 'de/home.body': ['content.errors.html'] }, /Text der Seite enthält HTML-Code/);
    }
    const heading = de.data.replace('  heading: Ihre Hausarztpraxis in Düsseldorf', '  heading: "<script>alert(1)</script>"');
    await expectRefused(HOME_DE, heading, de.file.id, { 'de/home.hero.heading': ['content.errors.html'] }, /Kopfbereich › Hauptüberschrift enthält HTML-Code/);
  });

  it('holds page fields to the admin text rules (docs/decisions/037): hidden and control characters, however YAML or Markdown spells them; line breaks only in paragraphs', async () => {
    const de = await entryOf(HOME_DE);
    const heading = (yaml: string) => de.data.replace('  heading: Ihre Hausarztpraxis in Düsseldorf', `  heading: ${yaml}`);
    for (const escaped of ['"Ihre Praxis \\u202E"', '"Ihre Praxis \\x01"', '"Ihre \\u200BPraxis"', '"Ihre Praxis \\uFFFF"']) {
      await expectRefused(HOME_DE, heading(escaped), de.file.id, { 'de/home.hero.heading': ['content.errors.invalidCharacters'] }, /Hauptüberschrift enthält Zeichen, die nicht erlaubt sind/);
    }
    await expectRefused(HOME_DE, heading('"Ihre =?utf-8?B?SGk=?= Praxis"'), de.file.id, { 'de/home.hero.heading': ['content.errors.invalidCharacters'] });
    await expectRefused(HOME_DE, heading('"Ihre Praxis\\nin Düsseldorf"'), de.file.id, { 'de/home.hero.heading': ['content.errors.singleLine'] }, /in eine Zeile passen/);
    // A paragraph may run over lines (the editor's text area), nothing more.
    const paragraph = (yaml: string) => de.data.replace(/^  text: Vorsorge.*$/m, `  text: ${yaml}`);
    await expectRefused(HOME_DE, paragraph('"Erste Zeile\\u202Ezweite"'), de.file.id, { 'de/home.hero.text': ['content.errors.invalidCharacters'] });
    // The Markdown body: format characters written as character references (controls and noncharacters become U+FFFD there).
    for (const hidden of ['&#x202E;', '&#8238;', '&#x200B;', '&#xFEFF;', '&#x2066;']) {
      await expectRefused(HOME_DE, `${de.data}\nText mit ${hidden} darin\n`, de.file.id, { 'de/home.body': ['content.errors.invalidCharacters'] }, /unsichtbare Zeichen/);
    }
    // The raw file itself is a JSON string: the floor under every body refuses it before the editor's rules.
    const raw = await save(HOME_DE, `${de.data}\nText \u0000 darin\n`, de.file.id);
    expect(raw.status).toBe(400);
    expect(raw.json.errors).toEqual({ 'params.dataFiles.0.raw': ['errors.invalidCharacters'] });
    expect(await file(HOME_DE)).toBe(de.data);
    expect(saved).toEqual([]);
    // Accepted: a paragraph over two lines, tabs and line breaks in the body.
    const fine = paragraph('"Vorsorge und Akutsprechstunde.\\nBuchen Sie online."') + '\n\tEingerückt\n';
    expect((await save(HOME_DE, fine, de.file.id)).status).toBe(200);
  });

  it('refuses links to anything but https, http, mailto, tel or this site, after entities are decoded', async () => {
    const de = await entryOf(HOME_DE);
    for (const link of [
      '[x](javascript&#58;alert(1))',
      '[x](&#106;avascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](java&#x09;script:alert(1))',
      '[x](data:text/html;base64,PGI+)',
      '[x](vbscript:msgbox)',
      '<javascript:alert(1)>',
      '[x][ref]\n\n[ref]: javascript&#x3A;alert(1)',
    ]) {
      await expectRefused(HOME_DE, `${de.data}\n${link}\n`, de.file.id, { 'de/home.body': ['content.errors.link'] }, /Link mit nicht erlaubtem Ziel/);
    }
    // The allowed kinds are saved.
    const fine = `${de.data}\n[a](https://example.org) [b](http://example.org) [c](mailto:praxis@example.org) [d](tel:+492111234560) [e](/termin) [f](#top) [g](kontakt)\n`;
    expect((await save(HOME_DE, fine, de.file.id)).status).toBe(200);
  });

  it('refuses practice facts that break the text rules or are no phone number or email address', async () => {
    const entry = await entryOf(PRACTICE);
    const facts = JSON.parse(entry.data);
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ name: { ...facts.name, en: 'Praxis\r\nBcc: victim@example.org' } }, { 'practice.name.en': ['content.errors.singleLine'] }],
      [{ doctor: 'Dr. \u202eMuster' }, { 'practice.doctor': ['content.errors.invalidCharacters'] }],
      [{ street: 'Königsallee\u00001' }, { 'practice.street': ['content.errors.invalidCharacters'] }],
      [{ city: '=?utf-8?q?D=C3=BCsseldorf?=' }, { 'practice.city': ['content.errors.invalidCharacters'] }],
      [{ phone: '0211 123\nBcc: x' }, { 'practice.phone': ['content.errors.phone'] }],
      [{ fax: 'Fax: keins' }, { 'practice.fax': ['content.errors.phone'] }],
      [{ email: 'praxis@example.org\r\nBcc: victim@example.org' }, { 'practice.email': ['content.errors.format', 'content.errors.invalidCharacters'] }],
    ];
    for (const [change, errors] of cases) {
      await expectRefused(PRACTICE, JSON.stringify({ ...facts, ...change }, null, 2), entry.file.id, errors);
    }
    const res = await save(PRACTICE, JSON.stringify({ ...facts, name: { ...facts.name, en: 'Praxis\r\nBcc: x' } }), entry.file.id);
    expect(res.json.detail).toBe('Praxisangaben: Name der Praxis › Name (Englisch) muss in eine Zeile passen (ohne Zeilenumbruch).');
    // A real number with a country code and a slash is fine.
    expect((await save(PRACTICE, JSON.stringify({ ...facts, phone: '+49 (0)211 / 123 456-0' }, null, 2), entry.file.id)).status).toBe(200);
  });
});
