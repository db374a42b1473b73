/**
 * The content editor's production path
 * (docs/decisions/022-content-editor.md). With GIT_REPOSITORY, GIT_BRANCH
 * and GIT_TOKEN the function reads and commits through the Git host's REST
 * contents API, here a local stand-in with GitHub's shapes
 * (tests/helpers/github-contents-stand-in.ts): GET with the blob SHA, one
 * PUT per changed file naming the SHA it replaces, the editor's email in
 * the commit message; a stale SHA (409 or 422 from the host) is a 409 and
 * overwrites nothing.
 */
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog } from '../../db/schema';
import content from '../../netlify/functions/admin-content';
import { onContentSaved } from '../../src/server/content/published.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { setEnv } from '../helpers/env';
import { startContentsStandIn, type StandIn } from '../helpers/github-contents-stand-in';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const HOME_DE = 'src/content/de/home.md';
const HOME_EN = 'src/content/en/home.md';
const TOKEN = 'github_pat_test_0123456789';

describe.each(databaseKinds)('content editor committing to the Git host on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let anna: TestUser;
  let host: StandIn;
  let restoreEnv: () => void;
  let original: Record<string, string>;
  const localSaves: string[][] = [];
  let stopListening: () => void;
  const asAnna = asAdmin(() => anna);
  const post = (body: unknown) => asAnna(content, '/api/admin/content', { method: 'POST', body });
  const entryOf = async (p: string) => (await post({ action: 'getEntry', params: { path: p } })).json as { data: string; file: { id: string } };
  const puts = () => host.requests.filter((r) => r.method === 'PUT');

  beforeAll(async () => {
    anna = await createAdmin(t.db, { email: `anna.redaktion-${kind}@example.org` });
    original = {
      [HOME_DE]: await readFile(HOME_DE, 'utf8'),
      [HOME_EN]: await readFile(HOME_EN, 'utf8'),
      'src/content/practice.json': await readFile('src/content/practice.json', 'utf8'),
    };
    stopListening = onContentSaved((paths) => localSaves.push(paths));
  });
  beforeEach(async () => {
    host = await startContentsStandIn({ repository: 'praxis/website', branch: 'main', token: TOKEN, files: original });
    restoreEnv = setEnv({ GIT_REPOSITORY: 'praxis/website', GIT_BRANCH: 'main', GIT_TOKEN: TOKEN, GIT_API_URL: host.url });
  });
  afterEach(async () => {
    restoreEnv();
    await host.close();
  });
  afterAll(async () => {
    stopListening();
  });

  it('says that saves go to the Git host', async () => {
    expect((await asAnna(content, '/api/admin/content')).json).toEqual({ store: 'github' });
  });

  it('reads a file through the contents API of the configured branch, with its blob SHA as version', async () => {
    const entry = await entryOf(HOME_DE);
    expect(entry.data).toBe(original[HOME_DE]);
    const get = host.requests.find((r) => r.method === 'GET')!;
    expect(get.path).toBe('/repos/praxis/website/contents/src/content/de/home.md?ref=main');
    expect(get.authorization).toBe(`Bearer ${TOKEN}`);
    expect(entry.file.id).toMatch(/^[0-9a-f]{40}$/);
  });

  it('commits one changed file with the SHA it replaces and the editor\'s email in the message, and audits it', async () => {
    const de = await entryOf(HOME_DE);
    const en = await entryOf(HOME_EN);
    const res = await post({
      action: 'persistEntry',
      params: {
        dataFiles: [
          { path: HOME_DE, raw: de.data.replace('heading: Ihre Hausarztpraxis in Düsseldorf', 'heading: Neu in Düsseldorf'), sha: de.file.id },
          { path: HOME_EN, raw: en.data, sha: en.file.id },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(puts()).toHaveLength(1);
    expect(puts()[0]!.body).toMatchObject({ sha: de.file.id, branch: 'main' });
    expect(host.commits).toEqual([{ path: HOME_DE, branch: 'main', message: expect.stringContaining(anna.email) }]);
    expect(host.commits[0]!.message).toMatch(/^Inhalte: Startseite \(Deutsch\) geändert/);
    expect(host.files.get(HOME_DE)).toContain('heading: Neu in Düsseldorf');
    expect(host.files.get(HOME_EN)).toBe(original[HOME_EN]);
    expect(res.json.files).toContainEqual({ path: HOME_DE, id: expect.not.stringMatching(de.file.id) });
    // Netlify's continuous deployment publishes the commit; nothing is rebuilt here.
    expect(localSaves).toEqual([]);
    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.userId, anna.id));
    expect(row).toMatchObject({ action: 'update', entity: 'page', entityId: 'de/home', label: 'Startseite (de): Kopfbereich › Hauptüberschrift' });
  });

  it('refuses a save whose version is outdated before writing anything (409)', async () => {
    const de = await entryOf(HOME_DE);
    host.files.set(HOME_DE, original[HOME_DE]!.replace('badge: Aktuell', 'badge: Wichtig'));
    const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: de.data.replace('badge: Aktuell', 'badge: Neu'), sha: de.file.id }] } });
    expect(res.status).toBe(409);
    expect(puts()).toEqual([]);
    expect(host.files.get(HOME_DE)).toContain('badge: Wichtig');
  });

  it.each([409, 422])('answers 409 when the host refuses the PUT with %i (a commit raced ours), overwriting nothing', async (status) => {
    const de = await entryOf(HOME_DE);
    const rowsBefore = (await t.db.select().from(auditLog).where(eq(auditLog.userId, anna.id))).length;
    host.failNextPut(status);
    const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: de.data.replace('badge: Aktuell', 'badge: Neu'), sha: de.file.id }] } });
    expect(res.status).toBe(409);
    expect(res.json.type).toBe('conflict');
    expect(host.files.get(HOME_DE)).toBe(original[HOME_DE]);
    // The audit row went with the refused write.
    expect(await t.db.select().from(auditLog).where(eq(auditLog.userId, anna.id))).toHaveLength(rowsBefore);
  });

  it('keeps a language the editor did not change out of the commit even when a colleague changed it meanwhile', async () => {
    const de = await entryOf(HOME_DE);
    const en = await entryOf(HOME_EN);
    const colleague = original[HOME_EN]!.replace('badge: ', 'badge: New ');
    host.files.set(HOME_EN, colleague);
    const res = await post({
      action: 'persistEntry',
      params: { dataFiles: [{ path: HOME_DE, raw: de.data.replace('badge: Aktuell', 'badge: Neu'), sha: de.file.id }, { path: HOME_EN, raw: en.data, sha: en.file.id }] },
    });
    expect(res.status).toBe(200);
    expect(host.commits.map((c) => c.path)).toEqual([HOME_DE]);
    expect(host.files.get(HOME_EN)).toBe(colleague);
    // Its blob was fetched by SHA to see that the editor left it as it was.
    expect(host.requests.some((r) => r.path === `/repos/praxis/website/git/blobs/${en.file.id}`)).toBe(true);
  });

  it('answers 502 when the host fails, and 503 not-configured with an incomplete Git setting', async () => {
    const de = await entryOf(HOME_DE);
    host.failNextPut(500);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const failed = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: de.data.replace('badge: Aktuell', 'badge: Neu'), sha: de.file.id }] } });
      expect(failed.status).toBe(502);
      expect(failed.json.type).toBe('git-host-failed');
      expect(failed.text).not.toContain(TOKEN);
      const restore = setEnv({ GIT_TOKEN: '' });
      try {
        const res = await asAnna(content, '/api/admin/content');
        expect(res.status).toBe(503);
        expect(res.json.type).toBe('not-configured');
        expect(log).toHaveBeenCalledWith(expect.stringContaining('GIT_TOKEN'));
      } finally {
        restore();
      }
    } finally {
      log.mockRestore();
    }
  });
});
