/**
 * An unknown /api/* path answers 404 problem+json. On
 * Netlify that is the catch-all function, which excludes every other
 * function's path (Netlify documents no precedence between function paths);
 * this keeps its literal list equal to the real paths, so a new function is
 * never shadowed by it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import notFound, { config } from '../../netlify/functions/api-not-found';
import { compilePath, loadFunctions } from '../../scripts/local-server';

const dir = path.resolve('netlify/functions');

describe('the /api/* catch-all function', () => {
  it('answers 404 problem+json with the security headers and a request id, for any method', async () => {
    const res = await notFound(new Request('http://localhost/api/nope/a/b?token=x', { method: 'DELETE' }), { params: {}, ip: '127.0.0.1', waitUntil: () => {} });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toMatchObject({ type: 'not-found', status: 404 });
  });

  it('excludes exactly the paths of every other function', async () => {
    const paths: string[] = [];
    for (const file of await readdir(dir)) {
      if (!file.endsWith('.ts') || file === 'api-not-found.ts') continue;
      // Netlify reads config.path from the source text, so this does too.
      const source = await readFile(path.join(dir, file), 'utf8');
      // A scheduled function has no path (Netlify invokes it by its schedule).
      if (/export const config = \{ schedule: /.test(source)) continue;
      const declared = /export const config = \{ path: (\[[^\]]*\]|'[^']*')(?:, method: '[A-Z]+')? \}/.exec(source);
      expect(declared, file).not.toBeNull();
      // A page's own function (a no-JavaScript form page or form post) is no /api path.
      paths.push(...[...declared![1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!).filter((p) => p === '/api' || p.startsWith('/api/')));
    }
    expect([...config.excludedPath].sort()).toEqual(paths.sort());
    expect(config.path).toEqual(['/api', '/api/*']);
  });

  it('matches unknown API paths, and the local server tries it only after every other route', { timeout: 30_000 }, async () => {
    const match = compilePath('/api/*');
    expect(match('/api/nope')).not.toBeNull();
    expect(match('/api/admin/users/1/x')).not.toBeNull();
    const routes = await loadFunctions(dir);
    expect(routes.at(-1)!.pattern).toBe('/api/*');
    const first = (p: string) => routes.find((r) => r.match(p) !== null)!.name;
    expect(first('/api/admin/time-slots/7')).toBe('admin-time-slot.ts');
    expect(first('/api/bookings')).toBe('bookings.ts');
    expect(first('/api/unknown')).toBe('api-not-found.ts');
    expect(first('/api')).toBe('api-not-found.ts');
    expect(first('/api/')).toBe('api-not-found.ts');
  });
});
