/**
 * Session cookies: HttpOnly (no page script can read a token), SameSite=Strict,
 * Path=/, Secure unless the request goes to localhost (docs/decisions/004).
 */
export const ACCESS_COOKIE = 'praxis_access';
export const REFRESH_COOKIE = 'praxis_refresh';

export function readCookies(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (!(name in out)) {
      try {
        out[name] = decodeURIComponent(value);
      } catch {
        out[name] = value;
      }
    }
  }
  return out;
}

function isLocalhost(req: Request): boolean {
  const host = new URL(req.url).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

function cookie(req: Request, name: string, value: string, maxAgeSeconds: number): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (!isLocalhost(req)) parts.push('Secure');
  return parts.join('; ');
}

export function sessionCookies(
  req: Request,
  tokens: { access: string; accessMaxAge: number; refresh: string; refreshMaxAge: number },
): string[] {
  return [
    cookie(req, ACCESS_COOKIE, tokens.access, tokens.accessMaxAge),
    cookie(req, REFRESH_COOKIE, tokens.refresh, tokens.refreshMaxAge),
  ];
}

export function clearedCookies(req: Request): string[] {
  return [cookie(req, ACCESS_COOKIE, '', 0), cookie(req, REFRESH_COOKIE, '', 0)];
}

/**
 * The pending sign-in of an account with a second factor (between the
 * password and the code): HttpOnly, SameSite=Strict like the session, only
 * sent to /api/auth, a few minutes long.
 */
export const PENDING_SIGN_IN_COOKIE = 'praxis_second_factor';

export function pendingSignInCookie(req: Request, token: string, maxAgeSeconds: number): string {
  return cookie(req, PENDING_SIGN_IN_COOKIE, token, maxAgeSeconds).replace('Path=/;', 'Path=/api/auth;');
}

export function clearedPendingSignInCookie(req: Request): string {
  return pendingSignInCookie(req, '', 0);
}

/**
 * A passkey sign-in under way (docs/decisions/037-passkeys-sessions-guessing.md):
 * the id of the challenge kept on the server for this browser, between the
 * options and the answer. HttpOnly, SameSite=Strict, only sent to
 * /api/auth, a few minutes long.
 */
export const PASSKEY_SIGN_IN_COOKIE = 'praxis_passkey';

export function passkeySignInCookie(req: Request, challengeId: string, maxAgeSeconds: number): string {
  return cookie(req, PASSKEY_SIGN_IN_COOKIE, challengeId, maxAgeSeconds).replace('Path=/;', 'Path=/api/auth;');
}

export function clearedPasskeySignInCookie(req: Request): string {
  return passkeySignInCookie(req, '', 0);
}
