/** Calls an admin handler as a signed-in admin from the site's own origin. */
import type { Handler } from '../../src/server/http.server';
import type { TestUser } from './auth';
import { call, type CallOptions } from './http';

/** The origin the origin check allows: SITE_URL's (tests stub it), else the local default. */
export const siteOrigin = () => new URL(process.env.SITE_URL || 'http://localhost:4321').origin;

export function asAdmin(admin: () => TestUser) {
  return (handler: Handler, path: string, options: CallOptions = {}) => asCookie(admin().cookie)(handler, path, options);
}

/** Calls a handler with a session's Cookie header from the site's own origin (and any further headers). */
export function asCookie(cookie: string, headers: Record<string, string> = {}) {
  return (handler: Handler, path: string, options: CallOptions = {}) =>
    call(handler, path, { ...options, headers: { cookie, origin: siteOrigin(), ...headers, ...options.headers } });
}

/** The field errors of a 400 problem, as { field: keys }. */
export function errorsOf(res: { status: number; json: any }): Record<string, string[]> {
  if (res.status !== 400) throw new Error(`expected 400, got ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json.errors;
}
