/**
 * Cross-site request refusal for state-changing requests (DESIGN.md): the
 * SameSite=Strict cookies already stay home, this is the second lock.
 * Browsers send Origin on every POST/PUT/PATCH/DELETE, so a request with a
 * foreign (or "null") Origin is refused; one without Origin comes from a
 * non-browser client that holds no victim's cookies.
 */
import { AppError } from '../../lib/errors';
import { readEnv } from '../env.server';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase());
}

export function assertSameOrigin(req: Request): void {
  if (!isStateChanging(req.method)) return;
  const origin = req.headers.get('origin');
  if (origin === null) {
    const site = req.headers.get('sec-fetch-site');
    if (site && site !== 'same-origin' && site !== 'none') throw crossSite();
    return;
  }
  const allowed = new Set([new URL(req.url).origin]);
  const host = req.headers.get('x-forwarded-host') ?? req.headers.get('host');
  if (host) allowed.add(`${new URL(req.url).protocol}//${host}`);
  try {
    allowed.add(new URL(readEnv().SITE_URL).origin);
  } catch {
    // an invalid SITE_URL only removes that one allowed origin
  }
  if (!allowed.has(origin)) throw crossSite();
}

function crossSite(): AppError {
  return new AppError('forbidden', 'Cross-site requests are not allowed.');
}
