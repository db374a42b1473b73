/**
 * The shape of a cancellation link's token: 43 URL-safe characters (32
 * random bytes, base64url). Apart from the schemas so the cancel page can
 * tell a link cut short (a mail program wrapped it) without bundling zod.
 */
export const CANCELLATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const isCancellationToken = (token: string): boolean => CANCELLATION_TOKEN.test(token);
