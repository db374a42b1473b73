import { json } from '../http.server';
import { sessionCookies } from './cookies.server';
import type { IssuedSession } from './sessions.server';

/** 200 `{ user, isAdmin, expiresAt }` plus the session cookies (login and refresh). */
export function sessionResponse(req: Request, issued: IssuedSession): Response {
  const headers = new Headers();
  for (const c of sessionCookies(req, {
    access: issued.accessToken,
    accessMaxAge: issued.accessMaxAge,
    refresh: issued.refreshToken,
    refreshMaxAge: issued.refreshMaxAge,
  })) {
    headers.append('set-cookie', c);
  }
  return json(issued.info, { headers });
}
