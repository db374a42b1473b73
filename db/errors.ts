/**
 * Recognises the errors of a database that is down, frozen or unreachable,
 * whichever driver raised them (node-postgres, the Neon driver, drizzle's
 * wrapper), so the API answers 503 `database-unavailable` instead of 500.
 */

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
