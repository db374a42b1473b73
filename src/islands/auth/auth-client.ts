/**
 * The browser side of /api/auth/*. Tokens live in HttpOnly cookies, so
 * nothing here ever sees one; it only learns who is signed in and when the
 * access token expires.
 */
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

export interface SessionInfo {
  user: { id: string; email: string };
  isAdmin: boolean;
  expiresAt: string;
  /** docs/decisions/027-staff-second-factor.md; absent from servers before it. */
  secondFactor?: 'passed' | 'none' | 'enrolment-required';
}

/** The password step of an account with a second factor: no session yet, the code comes next. */
export interface SecondFactorRequired {
  second_factor: 'required';
}

export interface AuthStatus {
  adminExists: boolean;
  setupHint: string | null;
}

/**
 * A failed API call: the HTTP status, the problem's `type` (its error
 * code, docs/architecture.md, HTTP API) and `reason` where the API names one, its field errors (translation
 * keys) and its `detail`, a developer text the back office never shows (it
 * words every problem in German from type and reason: failureText).
 */
export class ApiError extends Error {
  readonly type?: string;
  readonly reason?: string;
  /** The whole problem body, for members a page reads itself (`bookings` of a 409 has-bookings). */
  readonly body?: Record<string, unknown>;

  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    problem: { type?: string; reason?: string; body?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.type = problem.type;
    this.reason = problem.reason;
    this.body = problem.body;
  }

  /** The error a problem+json answer describes. */
  static fromProblem(res: Response, body: Record<string, unknown> | null): ApiError {
    const text = (key: string) => (typeof body?.[key] === 'string' ? (body[key] as string) : undefined);
    return new ApiError(res.status, text('detail') ?? text('title') ?? res.statusText, body?.errors as Record<string, string[]> | undefined, {
      type: text('type'),
      reason: text('reason'),
      body: body ?? undefined,
    });
  }
}

async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, {
    credentials: 'same-origin',
    ...init,
    headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
  });
  if (res.status === 204) return undefined as T;
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok) throw ApiError.fromProblem(res, body);
  return body as T;
}

export const authApi = {
  status: () => request<AuthStatus>('/api/auth/status'),
  login: (email: string, password: string) =>
    request<SessionInfo | SecondFactorRequired>('/api/auth/login', { method: 'POST', body: JSON.stringify({ email, password }) }),
  /** The code step: 6 digits from the app or a recovery code. */
  secondFactor: (code: string) => request<SessionInfo>('/api/auth/second-factor', { method: 'POST', body: JSON.stringify({ code }) }),
  /** "Mit Passkey anmelden" (docs/decisions/037-passkeys-sessions-guessing.md): the options, then the browser's answer; the session as after the code step. */
  passkeyOptions: () => request<PublicKeyCredentialRequestOptionsJSON>('/api/auth/passkey/login/options', { method: 'POST' }),
  passkeyVerify: (response: AuthenticationResponseJSON) =>
    request<SessionInfo>('/api/auth/passkey/login/verify', { method: 'POST', body: JSON.stringify(response) }),
  setup: (email: string, password: string, adminSecret: string) =>
    request<{ user: { id: string; email: string } }>('/api/auth/setup', {
      method: 'POST',
      body: JSON.stringify({ email, password, adminSecret }),
    }),
  session: () => request<SessionInfo>('/api/auth/session'),
  refresh: () => request<SessionInfo>('/api/auth/refresh', { method: 'POST' }),
  logout: () => request<void>('/api/auth/logout', { method: 'POST' }),
  forgot: (email: string) => request<{ accepted: true }>('/api/auth/forgot', { method: 'POST', body: JSON.stringify({ email }) }),
  /** Which account a usable link is for; 404 for a link that cannot be used. */
  linkAccount: (token: string) =>
    request<{ purpose: 'reset' | 'invitation'; email: string; expires_at: string }>(`/api/auth/reset?${new URLSearchParams({ token })}`),
  reset: (token: string, password: string) =>
    request<void>('/api/auth/reset', { method: 'POST', body: JSON.stringify({ token, password }) }),
};

/**
 * Signs in with a passkey: the server's options, the browser's ceremony
 * (@simplewebauthn/browser, loaded only now), the server's check. A
 * cancelled or impossible ceremony throws the browser's error, not an
 * ApiError.
 */
export async function signInWithPasskey(): Promise<SessionInfo> {
  const options = await authApi.passkeyOptions();
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return authApi.passkeyVerify(await startAuthentication({ optionsJSON: options }));
}

/** Check every 30 s, refresh when 90 s or less remain (docs/architecture.md, Security). */
export const SESSION_CHECK_INTERVAL_MS = 30_000;
export const REFRESH_MARGIN_MS = 90_000;

export function needsRefresh(expiresAt: string, now: number = Date.now()): boolean {
  return Date.parse(expiresAt) - now <= REFRESH_MARGIN_MS;
}

/**
 * The current session, refreshing first when the access token is (nearly)
 * gone; null when there is none. Used at load and on every 30 s tick.
 */
export async function currentSession(known?: SessionInfo | null, now: number = Date.now()): Promise<SessionInfo | null | 'ended'> {
  try {
    if (known && needsRefresh(known.expiresAt, now)) return await authApi.refresh();
    return await authApi.session();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
  }
  // The access cookie expired (a sleeping tab), or the session was ended: the refresh cookie may still hold, or say why not.
  try {
    return await authApi.refresh();
  } catch (error) {
    // Ended under "Angemeldete Geräte" on another device or by an admin (docs/decisions/041).
    if (error instanceof ApiError && error.status === 401) return error.reason === 'session-ended' ? 'ended' : null;
    throw error;
  }
}

/**
 * Where sign-in leads: back to the back-office page that sent the browser
 * to /auth (`?next=/admin/inhalte`), else the dashboard. Only paths of the
 * back office itself: never another site, never a protocol-relative URL.
 */
export function afterSignInPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/admin(?:[/?#]|$)/.test(next) && !/[\\\s]/.test(next) && !next.includes('//') ? next : '/admin';
}

/** The sign-in page, with the way back to `path` (a back-office page, with its query: `/admin/booked-slots?buchung=…`). */
export function signInPath(path: string, { ended = false }: { ended?: boolean } = {}): string {
  const query = new URLSearchParams();
  if (/^\/admin\/./.test(path)) query.set('next', path);
  // The sign-in page then says the session was ended elsewhere (docs/decisions/041).
  if (ended) query.set(ENDED_PARAM, '1');
  const search = query.toString();
  return search ? `/auth?${search}` : '/auth';
}

/** `/auth?beendet=1`: the sign-in page of a device whose session was ended on another device or by an admin. */
export const ENDED_PARAM = 'beendet';

/** A toast to show on the next page (the current one is about to be left). */
const FLASH_KEY = 'praxis.flash';
export interface Flash {
  title: string;
  description?: string;
}
export function setFlash(flash: Flash): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify(flash));
  } catch {
    // storage unavailable: the toast is only lost
  }
}
export function takeFlash(): Flash | null {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    sessionStorage.removeItem(FLASH_KEY);
    return raw ? (JSON.parse(raw) as Flash) : null;
  } catch {
    return null;
  }
}
