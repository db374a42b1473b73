/** Helpers every admin resource shares: the id of an item route and database error mapping. */
import type { RequestContext } from '../http.server';
import { AppError } from '../../lib/errors';
import { UUID } from '../../lib/uuid';

/** The `:id` of an item route; an id that is not a UUID cannot name anything, so 404. */
export function itemId(ctx: RequestContext, what: string): string {
  const id = ctx.params.id ?? '';
  if (!UUID.test(id)) throw notFound(what);
  return id.toLowerCase();
}

export function notFound(what: string): AppError {
  return new AppError('not-found', `Unknown ${what}.`);
}

/** The DB `time` columns read HH:mm:ss; the API speaks HH:mm. */
export const hhmm = (time: string) => time.slice(0, 5);

function pgCode(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * A foreign-key violation on appointment_type_id (the type was never there
 * or was deleted meanwhile) is bad input, not a bug.
 */
export async function withTypeReference<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgCode(error) === '23503') {
      throw new AppError('invalid-input', 'The consultation type does not exist.', { appointment_type_id: ['admin.errors.typeUnknown'] });
    }
    throw error;
  }
}
