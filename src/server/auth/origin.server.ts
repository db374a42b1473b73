/**
 * Cross-site request refusal for state-changing requests (docs/decisions/028): the
 * SameSite=Strict cookies already stay home, this is the second lock.
 * Browsers send Origin on every POST/PUT/PATCH/DELETE, so a request with a
 * foreign (or "null") Origin is refused; one without Origin comes from a
 * non-browser client that holds no victim's cookies.
 */
import { AppError } from '../../lib/errors';
import { readEnv, variables } from '../env.server';
import { previewDeployOrigin } from '../netlify-deploy.server';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase());
}

/**
 * The origins a local server of this process listens on (scripts/local-server.ts
 * registers them). Kept on globalThis, so every copy of this module (the
 * server's and the functions' it loads) sees the same list.
 */
const LOCAL_ORIGINS = Symbol.for('praxis.localServerOrigins');
function localOrigins(): Set<string> {
  const store = globalThis as { [LOCAL_ORIGINS]?: Set<string> };
  return (store[LOCAL_ORIGINS] ??= new Set());
}

export function registerLocalOrigins(origins: string[]): void {
  for (const origin of origins) localOrigins().add(origin);
}

/**
 * SITE_URL's origin; on a Netlify deploy preview or branch deploy also that
 * deploy's own origin (from Netlify's runtime context, never another
 * site's); outside production also the origins a local server of this
 * process actually listens on. Never from Host or X-Forwarded-Host, which
 * are whatever the client sends.
 */
export function allowedOrigins(): Set<string> {
  const env = readEnv();
  const allowed = new Set<string>();
  const local = env.isProduction ? new Set<string>() : localOrigins();
  // SITE_URL's built-in default (localhost:4321) stands for "the local
  // server": once one is listening in this process, its real origins
  // replace the default, whatever PORT it uses.
  const siteUrlSet = Boolean(variables().SITE_URL);
  if (siteUrlSet || local.size === 0) {
    try {
      allowed.add(new URL(env.SITE_URL).origin);
    } catch {
      // an invalid SITE_URL allows no origin of its own
    }
  }
  for (const origin of local) allowed.add(origin);
  const preview = previewDeployOrigin();
  if (preview) allowed.add(preview);
  return allowed;
}

export function assertSameOrigin(req: Request): void {
  if (!isStateChanging(req.method)) return;
  const origin = req.headers.get('origin');
  if (origin === null) {
    const site = req.headers.get('sec-fetch-site');
    if (site && site !== 'same-origin' && site !== 'none') throw crossSite();
    return;
  }
  if (!allowedOrigins().has(origin)) throw crossSite();
}

function crossSite(): AppError {
  return new AppError('forbidden', 'Cross-site requests are not allowed.');
}
