/**
 * What follows, after the answer, a change to a type's bookable times
 * (docs/architecture.md, Availability and capacity):
 * - a seat freed (a cancellation, a move, a block lifted, a window added):
 *   the waitlist is asked (docs/decisions/038) and the CDN's copies of the
 *   type's availability are purged;
 * - a seat taken or a time closed (a booking, a block): the copies are
 *   purged (docs/decisions/044).
 * Without a type: every type (a block for all, the holiday settings).
 */
import { afterResponse, type RequestContext } from './http.server';
import { purgeAvailability } from './availability-cache.server';

const scopeOf = (typeIds: Array<string | null | undefined>) => (typeIds.length === 0 || typeIds.some((id) => !id) ? 'all' : { types: typeIds });

/** A seat of `typeId` (every type when absent) may have become free. */
export function timesFreed(ctx: RequestContext, typeId?: string): void {
  // The offers' code (the waitlist, its messages in both languages, the mail and
  // SMS outbox) is read only once a seat is freed, after the answer: a function's
  // start does not carry it (docs/decisions/023).
  afterResponse(ctx, 'waitlist offers', async () => (await import('./waitlist/sweep.server')).offerFreedNow(typeId));
  purgeAvailability(ctx, scopeOf([typeId]));
}

/** Seats of these types were taken or their times closed; a null type (a block for all types) purges every type. */
export function timesTaken(ctx: RequestContext, ...typeIds: Array<string | null | undefined>): void {
  purgeAvailability(ctx, scopeOf(typeIds));
}
