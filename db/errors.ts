/**
 * The one place Postgres errors are decoded, whichever driver raised them
 * (node-postgres, the Neon driver, PGlite, drizzle's wrapper with the
 * driver's error as `cause`):
 *
 * - a failed statement's SQLSTATE, constraint and the detail/hint a
 *   function raised (`postgresError`), with named checks for the
 *   violations the code expects (unique, foreign key, check);
 * - a database that is down, frozen or unreachable (`isDatabaseUnavailable`),
 *   so the API answers 503 `database-unavailable` instead of 500.
 */

/** SQLSTATEs the code reacts to. */
export const SQLSTATE = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
} as const;

export interface PostgresError {
  code: string;
  constraint?: string;
  detail?: string;
  hint?: string;
}

/** The Postgres error (SQLSTATE, constraint, detail, hint) of a failed query, looking through driver wrappers. */
export function postgresError(error: unknown): PostgresError | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as PostgresError;
  }
  return undefined;
}

/** A unique index refused the row; with `constraint`, only that index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return violates(error, SQLSTATE.uniqueViolation, constraint);
}

/** A foreign key refused the row (the row it names is gone or never was). */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return violates(error, SQLSTATE.foreignKeyViolation, constraint);
}

/** A check constraint (or a trigger raising check_violation) refused the row; with `constraint`, only that one. */
export function isCheckViolation(error: unknown, constraint?: string): boolean {
  return violates(error, SQLSTATE.checkViolation, constraint);
}

function violates(error: unknown, code: string, constraint: string | undefined): boolean {
  const e = postgresError(error);
  return e?.code === code && (constraint === undefined || e.constraint === constraint);
}

/** The code to log for an unavailable database (a socket code or SQLSTATE; the message can quote values). */
export function unavailableCode(error: unknown): unknown {
  return (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
}

/** Socket-level failures: refused, reset, unreachable, DNS. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * SQLSTATEs of an unavailable server: class 08 (connection exception),
 * 57P01–57P03 (admin/crash shutdown, cannot connect now), 53300 (too many
 * connections), 57014 (statement timeout: the query was cancelled).
 */
function unavailableSqlState(code: string): boolean {
  return code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300' || code === '57014';
}

/** Driver messages without a code (node-postgres and Neon's fork of it, Neon's WebSocket). */
const MESSAGES = [
  /^Connection terminated/i, // pg: server closed the socket, or connection timeout
  /timeout exceeded when trying to connect/i, // pg pool: connectionTimeoutMillis
  /^Query read timeout$/i, // pg: query_timeout
  /connection timeout/i,
  /^Client has encountered a connection error/i,
  /WebSocket/i, // Neon: the WebSocket failed or closed
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && unavailableSqlState(code)))) return true;
  if (typeof message === 'string' && MESSAGES.some((re) => re.test(message))) return true;
  // AggregateError (several addresses refused), drizzle's DrizzleQueryError (cause)
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
