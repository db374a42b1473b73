/**
 * docs/architecture.md (Origin rule, rate limits, bad input):
 * state-changing requests are allowed from SITE_URL's origin and, in
 * development only, from the origin the local server really listens on (as
 * localhost and as 127.0.0.1). Host and X-Forwarded-Host are the client's
 * to choose and never widen the list.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { compilePath, startLocalServer, type RunningServer } from '../../scripts/local-server';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { route } from '../../src/server/http.server';
import { useTestBed } from '../setup/test-bed';

describe('Origin check', () => {
  const bed = useTestBed({ tempDir: 'origin-' });
  let root: string;
  let running: RunningServer;
  const saved = { ...process.env };

  beforeAll(async () => {
    root = bed.tempDir;
    await mkdir(path.join(root, 'dist'));
    await mkdir(path.join(root, 'fns'));
    running = await startLocalServer({
      port: 0,
      distDir: path.join(root, 'dist'),
      functionsDir: path.join(root, 'fns'),
      log: () => {},
      extraRoutes: [
        {
          name: 'change',
          pattern: '/api/change',
          match: compilePath('/api/change'),
          handler: route({
            POST: (req) => {
              assertSameOrigin(req);
              return new Response(null, { status: 204 });
            },
          }),
        },
      ],
    });
  });
  afterEach(() => {
    for (const k of ['APP_ENV', 'SITE_URL', 'JWT_SECRET', 'DATABASE_URL', 'POSTMARK_SERVER_TOKEN', 'MAIL_FROM', 'PRACTICE_EMAIL']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
  afterAll(async () => {
    await running.close();
  });

  const post = (headers: Record<string, string>) => fetch(`${running.url}/api/change`, { method: 'POST', headers }).then((r) => r.status);
  const port = () => new URL(running.url).port;

  it('in development accepts the listening origin as localhost and as 127.0.0.1, and SITE_URL', async () => {
    process.env.APP_ENV = 'development';
    process.env.SITE_URL = 'https://www.praxis.example';
    expect(await post({ origin: `http://localhost:${port()}` })).toBe(204);
    expect(await post({ origin: `http://127.0.0.1:${port()}` })).toBe(204);
    expect(await post({ origin: 'https://www.praxis.example' })).toBe(204);
  });

  it('never trusts X-Forwarded-Host or the Host header, and not another port of localhost', async () => {
    process.env.APP_ENV = 'development';
    process.env.SITE_URL = 'https://www.praxis.example';
    expect(await post({ origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' })).toBe(403);
    expect(await post({ origin: 'http://evil.example', host: 'evil.example' })).toBe(403);
    const otherPort = Number(port()) === 65_000 ? 65_001 : 65_000;
    expect(await post({ origin: `http://localhost:${otherPort}` })).toBe(403);
    expect(await post({ origin: 'null' })).toBe(403);
  });

  it('in development without SITE_URL, the default localhost:4321 is not allowed when the server listens elsewhere', async () => {
    process.env.APP_ENV = 'development';
    delete process.env.SITE_URL;
    expect(await post({ origin: `http://localhost:${port()}` })).toBe(204);
    if (port() !== '4321') expect(await post({ origin: 'http://localhost:4321' })).toBe(403);
  });

  it('in production accepts SITE_URL only, not the local listening origin', async () => {
    process.env.APP_ENV = 'production';
    process.env.JWT_SECRET = 'p'.repeat(40);
    process.env.DATABASE_URL = 'postgres://unused@localhost/unused';
    process.env.SITE_URL = 'https://www.praxis.example';
    process.env.POSTMARK_SERVER_TOKEN = 'postmark-token';
    process.env.MAIL_FROM = 'Praxis <praxis@example.org>';
    process.env.PRACTICE_EMAIL = 'praxis@example.org';
    expect(await post({ origin: 'https://www.praxis.example' })).toBe(204);
    expect(await post({ origin: `http://localhost:${port()}` })).toBe(403);
    expect(await post({ origin: 'https://www.praxis.example.evil.example', 'x-forwarded-host': 'www.praxis.example.evil.example' })).toBe(403);
  });
});
