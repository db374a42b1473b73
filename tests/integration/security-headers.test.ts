import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalServer, type RunningServer } from '../../scripts/local-server';
import status from '../../netlify/functions/auth-status';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../src/server/security-headers';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

function expectSecurityHeaders(headers: Headers, label: string) {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    expect(headers.get(name), `${label}: ${name}`).toBe(value);
  }
}

describe('the security headers', () => {
  it('forbid framing, sniffing and eval, and set HSTS, Referrer- and Permissions-Policy', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src(-elem)? [^;]*unsafe-inline/);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https?:\/\//);
    expect(SECURITY_HEADERS['X-Frame-Options']).toBe('DENY');
    expect(SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
    expect(SECURITY_HEADERS['Strict-Transport-Security']).toMatch(/^max-age=\d{8,}/);
    expect(SECURITY_HEADERS['Referrer-Policy']).toBeTruthy();
    expect(SECURITY_HEADERS['Permissions-Policy']).toContain('camera=()');
  });

  it('netlify.toml sets exactly the same headers for every path', async () => {
    const toml = parse(await readFile('netlify.toml', 'utf8')) as { headers?: Array<{ for: string; values: Record<string, string> }> };
    const all = toml.headers?.find((h) => h.for === '/*');
    expect(all?.values).toEqual(SECURITY_HEADERS);
  });
});

describe('served responses carry the security headers', () => {
  const bed = useTestBed({ database: 'pglite', tempDir: 'headers-' });
  let root: string;
  let running: RunningServer;

  beforeAll(async () => {
    root = bed.tempDir;
    await mkdir(path.join(root, '_astro'), { recursive: true });
    await writeFile(path.join(root, 'index.html'), '<h1>home</h1>');
    await writeFile(path.join(root, '404.html'), '<h1>Oops! Page not found</h1>');
    await writeFile(path.join(root, '_astro', 'a.js'), 'export {}');
    // The same options as scripts/serve.ts.
    running = await startLocalServer({
      port: 0,
      distDir: root,
      functionsDir: 'netlify/functions',
      headers: { ...SECURITY_HEADERS },
      log: vi.fn(),
    });
  });
  afterAll(async () => {
    await running.close();
  });

  it.each(['/', '/unbekannt', '/_astro/a.js', '/api/auth/status', '/api/auth/session', '/api/admin/stats', '/api/gibt-es-nicht'])(
    '%s',
    async (p) => {
      const res = await fetch(`${running.url}${p}`);
      await res.arrayBuffer();
      expectSecurityHeaders(res.headers, p);
    },
  );

  it('a POST answered with an error and a 405 carry them too', async () => {
    const res = await fetch(`${running.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    expectSecurityHeaders(res.headers, 'POST login');
    const wrong = await fetch(`${running.url}/api/auth/status`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expectSecurityHeaders(wrong.headers, 'DELETE status');
  });

  it('functions set them on their own responses (as on Netlify, where [[headers]] do not reach functions)', async () => {
    const res = await call(status, '/api/auth/status');
    expectSecurityHeaders(res.headers, 'function');
  });
});
