/**
 * The content editor's backend (docs/decisions/022-content-editor.md)
 * (/api/admin/content) on a temporary copy of src/content (CONTENT_ROOT),
 * as on a developer's machine: list, read, save, and everything it refuses.
 * The production path through the Git host: admin-content-github.test.ts.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../db/schema';
import content, { config } from '../../netlify/functions/admin-content';
import { onContentSaved } from '../../src/server/content/published.server';
import { gitBlobSha } from '../../src/server/content/port.server';
import { asAdmin, siteOrigin } from '../helpers/admin-call';
import { createAdmin, createUser, type TestUser } from '../helpers/auth';
import { setEnv } from '../helpers/env';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const HOME_DE = 'src/content/de/home.md';
const HOME_EN = 'src/content/en/home.md';

describe.each(databaseKinds)('content editor backend on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let anna: TestUser;
  let root: string;
  let restoreEnv: () => void;
  const saved: string[][] = [];
  let stopListening: () => void;
  const asAnna = asAdmin(() => anna);
  const post = (body: unknown, headers: Record<string, string> = {}) => asAnna(content, '/api/admin/content', { method: 'POST', body, headers });
  const file = (p: string) => readFile(path.join(root, p), 'utf8');
  const entryOf = async (p: string) => (await post({ action: 'getEntry', params: { path: p } })).json as { data: string; file: { path: string; id: string } };

  beforeAll(async () => {
    anna = await createAdmin(t.db, { email: `anna-${kind}@example.org` });
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

  it('is routed at /api/admin/content and says that saves go to the working copy', async () => {
    expect(config.path).toBe('/api/admin/content');
    expect((await asAnna(content, '/api/admin/content')).json).toEqual({ store: 'local' });
  });

  it('lists the requested files with their text and version', async () => {
    const res = await post({ action: 'entriesByFiles', params: { files: [{ path: HOME_DE, label: 'Startseite' }, { path: 'src/content/practice.json' }] } });
    expect(res.status).toBe(200);
    const [home, practice] = res.json;
    expect(home.data).toBe(await file(HOME_DE));
    expect(home.file).toEqual({ path: HOME_DE, label: 'Startseite', id: gitBlobSha(await file(HOME_DE)) });
    expect(JSON.parse(practice.data).doctor).toBeTruthy();
  });

  it('reads one file', async () => {
    const entry = await entryOf('src/content/en/team.md');
    expect(entry.data).toBe(await file('src/content/en/team.md'));
    expect(entry.file.id).toMatch(/^[0-9a-f]{40}$/);
  });

  it('saves a changed page, records it in the audit trail, leaves the unchanged language alone and tells the local server', async () => {
    const de = await entryOf(HOME_DE);
    const en = await entryOf(HOME_EN);
    const englishBefore = await file(HOME_EN);
    const changed = de.data.replace('heading: Ihre Hausarztpraxis in Düsseldorf', 'heading: Willkommen in der Praxis');
    // Decap sends both languages; the English one re-serialised but unchanged.
    const res = await post({
      action: 'persistEntry',
      params: {
        dataFiles: [
          { path: HOME_DE, slug: 'home', raw: changed, sha: de.file.id },
          { path: HOME_EN, slug: 'home', raw: `${en.data.trimEnd()}\n\n`, sha: en.file.id },
        ],
        assets: [],
        options: { commitMessage: 'Update Pages “home”' },
      },
    });
    expect(res.status).toBe(200);
    expect(await file(HOME_DE)).toContain('heading: Willkommen in der Praxis');
    expect(await file(HOME_EN)).toBe(englishBefore);
    expect(res.json.files).toEqual(
      expect.arrayContaining([
        { path: HOME_DE, id: gitBlobSha(await file(HOME_DE)) },
        { path: HOME_EN, id: en.file.id },
      ]),
    );
    expect(saved).toEqual([[HOME_DE]]);
    const rows = await t.db.select().from(auditLog).where(eq(auditLog.userId, anna.id));
    expect(rows.at(-1)).toMatchObject({ action: 'update', entity: 'page', entityId: 'de/home', label: 'Startseite (de): Kopfbereich › Hauptüberschrift', userEmail: anna.email });
  });

  it('keeps the comment lines that open a page file, which the editor does not know', async () => {
    const de = await entryOf(HOME_DE);
    const withoutComments = de.data.replace(/^---\n(#[^\n]*\n)+/, '---\n').replace('badge: Aktuell', 'badge: Neu');
    expect((await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: withoutComments, sha: de.file.id }] } })).status).toBe(200);
    const after = await file(HOME_DE);
    expect(after).toMatch(/^---\n# Startseite/);
    expect(after).toContain('badge: Neu');
  });

  it('refuses a missing field with 400 naming it in German, and writes nothing', async () => {
    const de = await entryOf(HOME_DE);
    const broken = de.data.replace(/  callLabel: .*\n/, '');
    const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: broken, sha: de.file.id }] } });
    expect(res.status).toBe(400);
    expect(res.json.type).toBe('invalid-input');
    expect(res.json.errors).toEqual({ 'de/home.hero.callLabel': ['content.errors.required'] });
    expect(res.json.detail).toBe('Startseite (Deutsch): Kopfbereich › Button „Anrufen“ fehlt.');
    expect(await file(HOME_DE)).toBe(de.data);
    expect(saved).toEqual([]);
  });

  it('refuses a misspelt field, an empty one and a wrong date, naming each', async () => {
    const de = await entryOf('src/content/de/impressum.md');
    const broken = de.data.replace('heading:', 'headng:').replace(/factsHeading: .*/, "factsHeading: ''").replace(/updated: .*/, 'updated: gestern');
    const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: 'src/content/de/impressum.md', raw: broken, sha: de.file.id }] } });
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual({
      'de/impressum.heading': ['content.errors.required'],
      'de/impressum.headng': ['content.errors.unknownField'],
      'de/impressum.factsHeading': ['content.errors.empty'],
      'de/impressum.updated': ['content.errors.date'],
    });
    expect(res.json.detail).toContain('Hauptüberschrift fehlt');
    expect(await file('src/content/de/impressum.md')).toBe(de.data);
  });

  it('refuses invalid practice facts and keeps their $comment on a valid save', async () => {
    const entry = await entryOf('src/content/practice.json');
    const facts = JSON.parse(entry.data);
    const bad = JSON.stringify({ ...facts, openingHours: [{ days: [1], opens: '8 Uhr', closes: '13:40' }] });
    const refused = await post({ action: 'persistEntry', params: { dataFiles: [{ path: 'src/content/practice.json', raw: bad, sha: entry.file.id }] } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({ 'practice.openingHours.0.opens': ['content.errors.format'] });
    expect(refused.json.detail).toBe('Praxisangaben: Sprechzeiten › 1. Eintrag › von (HH:mm) hat nicht die erwartete Form.');
    const { $comment: _comment, ...withoutComment } = facts;
    const good = JSON.stringify({ ...withoutComment, phone: '0211 999 888 0' }, null, 2);
    expect((await post({ action: 'persistEntry', params: { dataFiles: [{ path: 'src/content/practice.json', raw: good, sha: entry.file.id }] } })).status).toBe(200);
    const after = JSON.parse(await file('src/content/practice.json'));
    expect(after.phone).toBe('0211 999 888 0');
    expect(after.$comment).toBe(facts.$comment);
  });

  it('practice facts: a missing field is missing, a wrong one has the wrong form, an unknown one in a list entry is unknown', async () => {
    const entry = await entryOf('src/content/practice.json');
    const { postalCode: _postalCode, ...facts } = JSON.parse(entry.data);
    const bad = JSON.stringify({ ...facts, phone: 2115550123, openingHours: [{ ...facts.openingHours[0], note: 'x' }, ...facts.openingHours.slice(1)] });
    const refused = await post({ action: 'persistEntry', params: { dataFiles: [{ path: 'src/content/practice.json', raw: bad, sha: entry.file.id }] } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual({
      'practice.postalCode': ['content.errors.required'],
      'practice.phone': ['content.errors.type'],
      'practice.openingHours.0.note': ['content.errors.unknownField'],
    });
    expect(await file('src/content/practice.json')).toBe(entry.data);
  });

  it('refuses Markdown with HTML that could run script', async () => {
    const de = await entryOf(HOME_DE);
    for (const [snippet, key] of [
      ['<script>alert(1)</script>', 'content.errors.html'],
      ['<img src=x onerror="alert(1)">', 'content.errors.html'],
      ['[Klick](javascript:alert(1))', 'content.errors.link'],
      ['<iframe src="https://example.org"></iframe>', 'content.errors.html'],
    ]) {
      const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: `${de.data}\n${snippet}\n`, sha: de.file.id }] } });
      expect(res.status, snippet).toBe(400);
      expect(res.json.errors).toEqual({ 'de/home.body': [key] });
    }
    expect(await file(HOME_DE)).toBe(de.data);
  });

  it('refuses a save based on an outdated version with 409 and never overwrites the colleague', async () => {
    const de = await entryOf(HOME_DE);
    const colleague = de.data.replace('badge: Aktuell', 'badge: Wichtig');
    await writeFile(path.join(root, HOME_DE), colleague);
    const mine = de.data.replace('badge: Aktuell', 'badge: Neu');
    const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: mine, sha: de.file.id }] } });
    expect(res.status).toBe(409);
    expect(res.json.type).toBe('conflict');
    expect(res.json.detail).toContain('inzwischen von jemand anderem gespeichert');
    expect(await file(HOME_DE)).toBe(colleague);
  });

  it('does not count a language the editor left untouched as a conflict, even when a colleague changed it meanwhile', async () => {
    const de = await entryOf(HOME_DE);
    const en = await entryOf(HOME_EN);
    const colleague = en.data.replace('badge: ', 'badge: New ');
    await writeFile(path.join(root, HOME_EN), colleague);
    const res = await post({
      action: 'persistEntry',
      params: {
        dataFiles: [
          { path: HOME_DE, raw: de.data.replace('badge: Aktuell', 'badge: Neu'), sha: de.file.id },
          { path: HOME_EN, raw: en.data, sha: en.file.id },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(await file(HOME_EN)).toBe(colleague);
    // The English version stays the one the editor holds, so its next change there is still caught.
    expect(res.json.files).toContainEqual({ path: HOME_EN, id: en.file.id });
  });

  it('refuses every path outside the editable files', async () => {
    const de = await entryOf(HOME_DE);
    for (const p of ['src/content/../../package.json', '../secrets.txt', '/etc/passwd', 'src/pages/index.astro', 'src/content/de/neu.md', 'src/content\\de\\home.md']) {
      const read = await post({ action: 'getEntry', params: { path: p } });
      expect(read.status, p).toBe(403);
      const write = await post({ action: 'persistEntry', params: { dataFiles: [{ path: p, raw: de.data, sha: de.file.id }] } });
      expect(write.status, p).toBe(403);
    }
    const rename = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, newPath: 'src/content/de/start.md', raw: de.data, sha: de.file.id }] } });
    expect(rename.status).toBe(403);
    expect(await file(HOME_DE)).toBe(de.data);
  });

  it('refuses uploads and actions the editor does not use', async () => {
    const de = await entryOf(HOME_DE);
    const upload = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: de.data, sha: de.file.id }], assets: [{ path: 'public/x.png', content: 'AA==' }] } });
    expect(upload.status).toBe(400);
    expect((await post({ action: 'deleteFiles', params: { paths: [HOME_DE] } })).status).toBe(400);
    expect((await post({ action: 'getMedia', params: {} })).json).toEqual([]);
    expect(await file(HOME_DE)).toBe(de.data);
  });

  it('answers 401 without a session, 403 for a signed-in non-admin and for a foreign origin', async () => {
    const body = { action: 'getEntry', params: { path: HOME_DE } };
    expect((await call(content, '/api/admin/content', { method: 'POST', body, headers: { origin: siteOrigin() } })).status).toBe(401);
    expect((await call(content, '/api/admin/content')).status).toBe(401);
    const staff = await createUser(t.db, { admin: false });
    expect((await call(content, '/api/admin/content', { method: 'POST', body, headers: { cookie: staff.cookie, origin: siteOrigin() } })).status).toBe(403);
    expect((await post(body, { origin: 'https://evil.example' })).status).toBe(403);
  });
});

// Production refuses the embedded PGlite, so this runs on the real Postgres only.
describe('content editor backend in production', () => {
  const t = useTestBed({ database: 'postgres' });
  let anna: TestUser;
  let restoreEnv: () => void;
  const asAnna = asAdmin(() => anna);
  const post = (body: unknown) => asAnna(content, '/api/admin/content', { method: 'POST', body });

  beforeAll(async () => {
    restoreEnv = setEnv({
      APP_ENV: '',
      DATABASE_URL: t.url,
      JWT_SECRET: 'j'.repeat(48),
      POSTMARK_SERVER_TOKEN: 'postmark-token',
      MAIL_FROM: 'Praxis <praxis@example.org>',
      PRACTICE_EMAIL: 'team@example.org',
      SITE_URL: siteOrigin(),
    });
    anna = await createAdmin(t.db);
  });
  afterAll(async () => {
    restoreEnv();
  });

  it('answers 503 not-configured without the Git settings, naming them only in the log', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const res of [await asAnna(content, '/api/admin/content'), await post({ action: 'getEntry', params: { path: HOME_DE } })]) {
        expect(res.status).toBe(503);
        expect(res.json.type).toBe('not-configured');
        expect(res.text).not.toContain('GIT_');
      }
      expect(log).toHaveBeenCalledWith(expect.stringContaining('GIT_REPOSITORY, GIT_BRANCH, GIT_TOKEN'));
    } finally {
      log.mockRestore();
    }
  });
});
