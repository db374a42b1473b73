/**
 * GET /api/admin/content/status: the state of the last content publication
 * for staff. Locally the rebuild's state; in production the Git host's
 * newest content commit and, with NETLIFY_API_TOKEN and the site id, the
 * state of Netlify's deploy of it (a local stand-in with Netlify's shapes);
 * without them "gespeichert – Netlify veröffentlicht …" with the commit's
 * link (docs/decisions/031-content-editor-second-pass.md).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import content from '../../netlify/functions/admin-content';
import status, { config } from '../../netlify/functions/admin-content-status';
import { setLocalPublishStatus } from '../../src/server/content/published.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, createUser, type TestUser } from '../helpers/auth';
import { setEnv } from '../helpers/env';
import { startContentsStandIn, type StandIn } from '../helpers/github-contents-stand-in';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const HOME_DE = 'src/content/de/home.md';
const TOKEN = 'github_pat_status_0123456789';
const NETLIFY_TOKEN = 'nfp_status_token';

/** Netlify's GET /api/v1/sites/:id/deploys with the deploys a test sets. */
async function netlifyStandIn() {
  const deploys: Array<Record<string, unknown>> = [];
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization}`);
    const ok = req.headers.authorization === `Bearer ${NETLIFY_TOKEN}` && req.url?.startsWith('/api/v1/sites/site-123/deploys');
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ok ? deploys : { code: 401, message: 'Access Denied' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    deploys,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(databaseKinds)('content publication status on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let anna: TestUser;
  const asAnna = asAdmin(() => anna);

  beforeAll(async () => {
    anna = await createAdmin(t.db, { email: `anna-status-${kind}@example.org` });
  });

  it('is routed at /api/admin/content/status, for staff admins only', async () => {
    expect(config.path).toBe('/api/admin/content/status');
    expect((await call(status, '/api/admin/content/status')).status).toBe(401);
    const staff = await createUser(t.db, { admin: false });
    expect((await call(status, '/api/admin/content/status', { headers: { cookie: staff.cookie } })).status).toBe(403);
  });

  it('reports the local rebuild: running, live since, failed with the reason', async () => {
    setLocalPublishStatus('running');
    expect((await asAnna(status, '/api/admin/content/status')).json).toMatchObject({ state: 'running' });
    setLocalPublishStatus('live');
    const live = (await asAnna(status, '/api/admin/content/status')).json;
    expect(live.state).toBe('live');
    expect(Date.now() - Date.parse(live.since)).toBeLessThan(5000);
    setLocalPublishStatus('failed', 'src/content/de/home.md: hero.heading: Required');
    expect((await asAnna(status, '/api/admin/content/status')).json).toMatchObject({ state: 'failed', detail: 'src/content/de/home.md: hero.heading: Required' });
  });

  describe('in production (the Git host)', () => {
    let host: StandIn;
    let netlify: Awaited<ReturnType<typeof netlifyStandIn>>;
    let restoreEnv: () => void;
    const post = (body: unknown) => asAnna(content, '/api/admin/content', { method: 'POST', body });

    beforeEach(async () => {
      host = await startContentsStandIn({ repository: 'praxis/website', branch: 'main', token: TOKEN, files: { [HOME_DE]: await readFile(HOME_DE, 'utf8') } });
      netlify = await netlifyStandIn();
      restoreEnv = setEnv({ GIT_REPOSITORY: 'praxis/website', GIT_BRANCH: 'main', GIT_TOKEN: TOKEN, GIT_API_URL: host.url, NETLIFY_API_URL: netlify.url, NETLIFY_API_TOKEN: '', NETLIFY_SITE_ID: '', SITE_ID: '' });
    });
    afterEach(async () => {
      restoreEnv();
      await host.close();
      await netlify.close();
    });

    async function saveHeading(): Promise<string> {
      const de = (await post({ action: 'getEntry', params: { path: HOME_DE } })).json as { data: string; file: { id: string } };
      const res = await post({ action: 'persistEntry', params: { dataFiles: [{ path: HOME_DE, raw: de.data.replace('badge: Aktuell', 'badge: Neu'), sha: de.file.id }] } });
      expect(res.status).toBe(200);
      const commits = (await (await fetch(`${host.url}/repos/praxis/website/commits?sha=main&path=src/content&per_page=1`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as Array<{ sha: string }>;
      return commits[0]!.sha;
    }

    it('without Netlify settings: saved, Netlify usually publishes in 1–2 minutes, with the commit link', async () => {
      const sha = await saveHeading();
      const res = await asAnna(status, '/api/admin/content/status');
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        state: 'queued',
        commit: { sha, url: `https://github.com/praxis/website/commit/${sha}` },
        detail: 'gespeichert – Netlify veröffentlicht in der Regel in 1–2 Minuten',
      });
      expect(netlify.seen).toEqual([]);
    });

    it("with Netlify settings: the state of the commit's deploy, from waiting to live or failed", async () => {
      const sha = await saveHeading();
      const restore = setEnv({ NETLIFY_API_TOKEN: NETLIFY_TOKEN, NETLIFY_SITE_ID: 'site-123' });
      try {
        const ask = async () => (await asAnna(status, '/api/admin/content/status')).json;
        expect(await ask()).toMatchObject({ state: 'queued', commit: { sha } });
        netlify.deploys.push({ state: 'ready', commit_ref: 'f'.repeat(40), published_at: '2026-11-25T10:00:00Z' });
        netlify.deploys.unshift({ state: 'enqueued', commit_ref: sha, created_at: '2026-11-25T20:44:00Z' });
        expect(await ask()).toMatchObject({ state: 'queued', since: '2026-11-25T20:44:00Z' });
        netlify.deploys[0] = { state: 'building', commit_ref: sha, created_at: '2026-11-25T20:44:00Z', updated_at: '2026-11-25T20:44:10Z' };
        expect(await ask()).toMatchObject({ state: 'running' });
        netlify.deploys[0] = { state: 'ready', commit_ref: sha, published_at: '2026-11-25T20:45:00Z' };
        expect(await ask()).toMatchObject({ state: 'live', since: '2026-11-25T20:45:00Z', commit: { sha } });
        netlify.deploys[0] = { state: 'error', commit_ref: sha, updated_at: '2026-11-25T20:45:00Z', error_message: 'Build script returned non-zero exit code: 2' };
        expect(await ask()).toMatchObject({ state: 'failed', detail: 'Build script returned non-zero exit code: 2' });
        expect(netlify.seen.every((s) => s.endsWith(`Bearer ${NETLIFY_TOKEN}`))).toBe(true);
        const answer = JSON.stringify(await ask());
        expect(answer).not.toContain(NETLIFY_TOKEN);
        expect(answer).not.toContain(TOKEN);
      } finally {
        restore();
      }
    });
  });
});
