/**
 * The patient requests' kinds, statuses and choices
 * (docs/decisions/036-patient-requests.md): plain values, apart from the
 * request's schema (request-schema.ts) so that the pages and lists that
 * name them never load the schema's phone rules.
 */
export const REQUEST_KINDS = ['prescription', 'referral', 'callback'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
export const isRequestKind = (value: unknown): value is RequestKind => typeof value === 'string' && (REQUEST_KINDS as readonly string[]).includes(value);

/** `new` → `in_progress` → `done` | `declined`. */
export const REQUEST_STATUSES = ['new', 'in_progress', 'done', 'declined'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const OPEN_STATUSES: readonly RequestStatus[] = ['new', 'in_progress'];

export const INSURANCES = ['statutory', 'private'] as const;
export const DELIVERIES = ['card', 'pickup'] as const;
export const CALLBACK_DAYPARTS = ['morning', 'afternoon'] as const;

/** The id of the form's outcome: the page's marker the answer without JavaScript replaces, and the form's fragment. */
export const REQUEST_RESULT_ID = 'request-result';
