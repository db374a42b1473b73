/**
 * The shape of a cancellation link's token: 43 URL-safe characters (32
 * random bytes, base64url). Apart from the schemas so the cancel page can
 * tell a link cut short (a mail program wrapped it) without bundling zod.
 */
export const CANCELLATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const isCancellationToken = (token: string): boolean => CANCELLATION_TOKEN.test(token);

/**
 * The link page's part for a browser without JavaScript (a <noscript> with
 * a plain cancel form) and the marker its form's answer puts the outcome
 * in (docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
 */
export const CANCEL_NO_SCRIPT_ID = 'cancel-no-script';
export const CANCEL_RESULT_ID = 'cancel-result';
