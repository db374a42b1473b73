import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readCookies, sessionCookies } from './cookies.server';
import { assertSameOrigin } from './origin.server';
import { hashPassword, verifyPassword } from './password.server';
import { ACCESS_TOKEN_TTL_SECONDS, signAccessToken, verifyAccessToken } from './tokens.server';

const SESSION = { userId: '11111111-1111-4111-8111-111111111111', sessionId: '22222222-2222-4222-8222-222222222222' };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.useRealTimers();
});

describe('password hashes', () => {
  it('are salted scrypt hashes that verify only the right password', async () => {
    const a = await hashPassword('geheim1');
    const b = await hashPassword('geheim1');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('geheim1', a)).toBe(true);
    expect(await verifyPassword('geheim2', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('never match a malformed stored value', async () => {
    for (const stored of ['', 'plain', 'scrypt$1$2$3', 'bcrypt$16384$8$1$c2FsdA$aGFzaA', 'scrypt$x$8$1$c2FsdA$aGFzaA', 'scrypt$16384$8$1$c2FsdA$']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });
});

describe('access tokens', () => {
  it('are HS256 JWTs with user and session, valid for 15 minutes', async () => {
    const { token, expiresAt } = await signAccessToken(SESSION, new Date());
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    expect(decodeJwt(token)).toMatchObject({ sub: SESSION.userId, sid: SESSION.sessionId });
    expect(await verifyAccessToken(token)).toEqual({ ...SESSION, expiresAt });
    vi.useFakeTimers({ now: expiresAt.getTime() + 1000, toFake: ['Date'] });
    expect(await verifyAccessToken(token)).toBeNull();
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(900);
  });

  it('without JWT_SECRET outside production use a random per-process secret, not a known default', async () => {
    vi.stubEnv('JWT_SECRET', '');
    const { token } = await signAccessToken(SESSION);
    expect(await verifyAccessToken(token)).not.toBeNull();
    vi.stubEnv('JWT_SECRET', 'a'.repeat(32));
    // Signed with the random secret, so the configured one refuses it.
    expect(await verifyAccessToken(token)).toBeNull();
    const { token: configured } = await signAccessToken(SESSION);
    expect(await verifyAccessToken(configured)).not.toBeNull();
  });
});

describe('session cookies', () => {
  it('are HttpOnly, SameSite=Strict, Path=/, and Secure except on localhost', () => {
    const tokens = { access: 'a', accessMaxAge: 900, refresh: 'r', refreshMaxAge: 60 };
    for (const host of ['http://localhost:4321', 'http://127.0.0.1:8080']) {
      const cookies = sessionCookies(new Request(`${host}/api/auth/login`), tokens);
      expect(cookies).toEqual(['praxis_access=a; Path=/; HttpOnly; SameSite=Strict; Max-Age=900', 'praxis_refresh=r; Path=/; HttpOnly; SameSite=Strict; Max-Age=60']);
    }
    const remote = sessionCookies(new Request('https://praxis.example/api/auth/login'), tokens);
    expect(remote.every((c) => c.endsWith('; Secure'))).toBe(true);
  });

  it('are read from a Cookie header, first value winning', () => {
    const req = new Request('http://localhost/', { headers: { cookie: 'x=1; praxis_access=abc; praxis_access=evil; y=%20' } });
    expect(readCookies(req)).toEqual({ x: '1', praxis_access: 'abc', y: ' ' });
  });
});

describe('origin check', () => {
  const req = (method: string, headers: Record<string, string>) => new Request('http://localhost:4321/api/admin/x', { method, headers });

  it.each([
    ['POST', { origin: 'https://evil.example' }],
    ['PUT', { origin: 'http://localhost:4321.evil.example' }],
    ['PATCH', { origin: 'null' }],
    ['DELETE', { origin: 'http://localhost:9999' }],
    ['POST', { 'sec-fetch-site': 'cross-site' }],
    ['POST', { 'sec-fetch-site': 'same-site' }],
  ])('refuses %s with %j', (method, headers) => {
    expect(() => assertSameOrigin(req(method, headers))).toThrow(expect.objectContaining({ code: 'forbidden', status: 403 }));
  });

  it.each([
    ['POST', { origin: 'http://localhost:4321' }],
    ['DELETE', { 'sec-fetch-site': 'same-origin' }],
    ['POST', {}],
    ['GET', { origin: 'https://evil.example' }],
  ])('accepts %s with %j', (method, headers) => {
    expect(() => assertSameOrigin(req(method, headers))).not.toThrow();
  });

  it('accepts the configured public origin (SITE_URL) behind a proxy', () => {
    vi.stubEnv('SITE_URL', 'https://www.praxis.example');
    const r = new Request('http://internal:8888/api/auth/login', { method: 'POST', headers: { origin: 'https://www.praxis.example' } });
    expect(() => assertSameOrigin(r)).not.toThrow();
  });
});
