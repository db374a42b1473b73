/**
 * Errors carry a code; the code is also a translation key (errors.<code>),
 * and its HTTP status is decided in one place: HTTP_STATUS_BY_CODE.
 */
export const HTTP_STATUS_BY_CODE = {
  'invalid-input': 400,
  /** `sms: true` for a number that is not a mobile one; `errors.phone` says so (docs/decisions/043-sms-second-channel.md). */
  'phone-not-mobile': 400,
  unauthenticated: 401,
  /** A wrong, used or replayed second-factor code (docs/decisions/027-staff-second-factor.md). */
  'invalid-code': 401,
  /** A password confirming a change to one's own sign-in (a second factor set up, a passkey removed) is missing or wrong. */
  'wrong-password': 401,
  /** The account must set up its second factor before anything else. */
  'second-factor-enrolment-required': 403,
  forbidden: 403,
  'not-found': 404,
  'method-not-allowed': 405,
  conflict: 409,
  'slot-unavailable': 409,
  'too-late': 409,
  'admin-exists': 409,
  'type-has-future-bookings': 409,
  /** A block would cover bookings and the request did not say what becomes of them. */
  'has-bookings': 409,
  /** The booking was cancelled by the practice (its link then answers this until the date has passed). */
  'cancelled-by-practice': 410,
  /** The patient cancelled the booking through the link (docs/decisions/029): the link says so until the date has passed. */
  'cancelled-by-patient': 410,
  'last-admin': 409,
  /** Waitlist (docs/decisions/032): a second entry of one booking; an offered time already taken; an offer no longer valid. */
  'already-waiting': 409,
  taken: 409,
  expired: 410,
  /** A weekly window would overlap another window of its type on that weekday; `overlap` names it (docs/decisions/030). */
  'window-overlap': 409,
  /** The practice does not take this kind of patient request online at the moment (docs/decisions/036). */
  'request-kind-closed': 409,
  /** A staff message to a patient names a request's medication, reason, specialty or topic, or the booking's type; sent only with `confirm: true` (docs/decisions/041). */
  'message-names-details': 409,
  'payload-too-large': 413,
  'unsupported-media-type': 415,
  /**
   * The code step of sign-in is closed after 30 wrong codes in a day, until
   * the password is set anew (docs/decisions/037-passkeys-sessions-guessing.md);
   * a recovery code or a passkey still signs in.
   */
  'code-step-closed': 423,
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

/** Field name → translation keys, as in a problem's `errors` (docs/architecture.md, HTTP API). */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    /** A human-readable explanation, safe to show (never patient data). */
    readonly detail?: string,
    readonly fieldErrors?: FieldErrors,
    /**
     * retryAfterSeconds: for 429, seconds until a retry can succeed, sent as Retry-After.
     * extra: members the problem body adds (`reason` of slot-unavailable, `bookings` of has-bookings).
     */
    options: { retryAfterSeconds?: number; extra?: Record<string, unknown> } = {},
  ) {
    super(detail ?? code);
    this.name = 'AppError';
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.extra = options.extra;
  }

  /** Further members of the problem body. */
  readonly extra?: Record<string, unknown>;

  /** For a 429: when the limit allows the next attempt (the Retry-After header). */
  readonly retryAfterSeconds?: number;

  get status(): number {
    return HTTP_STATUS_BY_CODE[this.code];
  }
}
