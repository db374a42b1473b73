/**
 * A save changes only the lines of the fields that changed, whatever the
 * editor sends: Decap re-serialises the whole file (its YAML quoting,
 * lines folded at 80 characters, its Markdown list markers). The audit row
 * names the page, the language and the fields, never the text
 * (docs/decisions/031-content-editor-second-pass.md).
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import jsYaml from 'js-yaml';
import { auditLog } from '../../db/schema';
import content from '../../netlify/functions/admin-content';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { setEnv } from '../helpers/env';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const HOME_DE = 'src/content/de/home.md';
const HOME_EN = 'src/content/en/home.md';
const PRACTICE = 'src/content/practice.json';

/** The file as Decap's editor sends it back: frontmatter re-serialised (folded at 80), comments gone, body rewritten. */
function asDecapSends(raw: string, change: (data: Record<string, unknown>) => void = () => undefined): string {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(raw)!;
  const data = jsYaml.load(match[1]!) as Record<string, unknown>;
  change(data);
  const body = raw
    .slice(match[0].length)
    .replace(/^- /gm, '* ')
    .replace(/([.,]) (\S)/g, '$1\n$2');
  return `---\n${stringify(data, { lineWidth: 80 })}---\n${body}`;
}

/** Lines that differ between two texts of the same number of lines (a one-line change is 1). */
function changedLines(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  if (x.length !== y.length) return Math.abs(x.length - y.length) + 100;
  return x.filter((line, i) => line !== y[i]).length;
}

describe.each(databaseKinds)('one-line diffs and audit text on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let anna: TestUser;
  let root: string;
  let restoreEnv: () => void;
  const asAnna = asAdmin(() => anna);
  const post = (body: unknown) => asAnna(content, '/api/admin/content', { method: 'POST', body });
  const file = (p: string) => readFile(path.join(root, p), 'utf8');
  const entryOf = async (p: string) => (await post({ action: 'getEntry', params: { path: p } })).json as { data: string; file: { path: string; id: string } };
  const lastAudit = async () => (await t.db.select().from(auditLog).where(eq(auditLog.userId, anna.id))).sort((a, b) => a.id - b.id).at(-1);

  beforeAll(async () => {
    anna = await createAdmin(t.db, { email: `anna-diffs-${kind}@example.org` });
  });
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'praxis-content-'));
    await cp('src/content', path.join(root, 'src/content'), { recursive: true });
    restoreEnv = setEnv({ CONTENT_ROOT: root });
  });
  afterEach(async () => {
    restoreEnv();
    await rm(root, { recursive: true, force: true });
  });

  it('a heading change is one changed line in the German file and none in the English one', async () => {
    const de = await entryOf(HOME_DE);
    const en = await entryOf(HOME_EN);
    const res = await post({
      action: 'persistEntry',
      params: {
        dataFiles: [
          { path: HOME_DE, raw: asDecapSends(de.data, (d) => ((d.hero as Record<string, unknown>).heading = 'Willkommen in der Praxis')), sha: de.file.id },
          { path: HOME_EN, raw: asDecapSends(en.data), sha: en.file.id },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const after = await file(HOME_DE);
    expect(changedLines(de.data, after)).toBe(1);
    expect(after).toContain('  heading: Willkommen in der Praxis\n');
    expect(await file(HOME_EN)).toBe(en.data);
    const row = await lastAudit();
    expect(row?.label).toBe('Startseite (de): Kopfbereich › Hauptüberschrift');
    expect(row?.label).not.toContain('Willkommen');
  });

  it('keeps quoting, comments and the body; a changed body is written, named in the audit', async () => {
    const de = await entryOf(HOME_DE);
    const quoted = de.data.replace('  callLabel: Anrufen', "  callLabel: 'Anrufen'");
    // A colleague's hand-written file with a quoted value (written directly).
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path.join(root, HOME_DE), quoted);
    const cur = await entryOf(HOME_DE);
    const raw = asDecapSends(cur.data, (d) => {
      (d.hero as Record<string, unknown>).callLabel = "Rufen Sie an: 'jetzt'";
      (d.news as Record<string, unknown>).badge = 'Neu';
    });
    expect((await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw, sha: cur.file.id }] } })).status).toBe(200);
    const after = await file(HOME_DE);
    expect(changedLines(cur.data, after)).toBe(2);
    expect(after).toContain("  callLabel: 'Rufen Sie an: ''jetzt'''\n");
    expect(after).toMatch(/^---\n# Startseite/);
    expect((await lastAudit())?.label).toBe('Startseite (de): Kopfbereich › Button „Anrufen“, Aktuelles › Kennzeichnung');

    const next = await entryOf(HOME_DE);
    const body = `${next.data.trimEnd()}\n\nEin neuer Absatz.\n`;
    expect((await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: body, sha: next.file.id }] } })).status).toBe(200);
    expect(await file(HOME_DE)).toContain('Ein neuer Absatz.');
    expect((await lastAudit())?.label).toBe('Startseite (de): Text der Seite');
  });

  it('a practice fact change is one changed line in practice.json', async () => {
    const entry = await entryOf(PRACTICE);
    const facts = JSON.parse(entry.data);
    delete facts.$comment;
    const raw = JSON.stringify({ ...facts, phone: '0211 999 888 0' }, null, 2);
    expect((await post({ action: 'persistEntry', params: { dataFiles: [{ path: PRACTICE, raw, sha: entry.file.id }] } })).status).toBe(200);
    const after = await file(PRACTICE);
    expect(changedLines(entry.data, after)).toBe(1);
    expect(JSON.parse(after).phone).toBe('0211 999 888 0');
    expect((await lastAudit())?.label).toBe('Praxisangaben: Telefon');
  });
});
