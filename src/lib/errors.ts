/**
 * Errors carry a code; the code is also a translation key (errors.<code>),
 * and its HTTP status is decided in one place: HTTP_STATUS_BY_CODE.
 */
export const HTTP_STATUS_BY_CODE = {
  'invalid-input': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'slot-unavailable': 409,
  'too-late': 409,
  'admin-exists': 409,
  'type-has-future-bookings': 409,
  'last-admin': 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  'rate-limited': 429,
  'email-failed': 502,
  /** The Git host (content editor, production) refused or did not answer. */
  'git-host-failed': 502,
  'setup-disabled': 503,
  /** Production is missing a required variable (env.server.ts). */
  'not-configured': 503,
  /** The database is down, frozen or unreachable (db/errors.ts). */
  'database-unavailable': 503,
} as const;

export type ErrorCode = keyof typeof HTTP_STATUS_BY_CODE;

/** Field name → translation keys, as in API.md's problem `errors`. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** A human-readable explanation, safe to show (never patient data). */
    readonly detail?: string,
    readonly fieldErrors?: FieldErrors,
    /** For 429: seconds until a retry can succeed, sent as Retry-After. */
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(detail ?? code);
    this.name = 'AppError';
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** For a 429: when the limit allows the next attempt (the Retry-After header). */
  readonly retryAfterSeconds?: number;

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}
