/** Helpers every admin resource shares: the id of an item route and the mapping of a missing type. */
import type { RequestContext } from '../http.server';
import { AppError } from '../../lib/errors';
import { UUID } from '../../lib/uuid';
import { isForeignKeyViolation } from '../../../db/errors';

/** The `:id` of an item route; an id that is not a UUID cannot name anything, so 404. */
export function itemId(ctx: RequestContext, what: string): string {
  const id = ctx.params.id ?? '';
  if (!UUID.test(id)) throw notFound(what);
  return id.toLowerCase();
}

export function notFound(what: string): AppError {
  return new AppError('not-found', `Unknown ${what}.`);
}

/**
 * A foreign-key violation on appointment_type_id (the type was never there
 * or was deleted meanwhile) is bad input, not a bug.
 */
export async function withTypeReference<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new AppError('invalid-input', 'The consultation type does not exist.', { appointment_type_id: ['admin.errors.typeUnknown'] });
    }
    throw error;
  }
}
