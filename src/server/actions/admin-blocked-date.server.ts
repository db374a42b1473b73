/** /api/admin/blocked-dates/:id: one block changed or lifted. */
import { blockedDateSchema } from '../../lib/admin-schemas';
import { AppError } from '../../lib/errors';
import { cancelledRows, keptBookings, messageOptions, saveBlock, type BlockOutcome } from '../admin/block-bookings.server';
import { deleteBlockedDate } from '../admin/blocked-dates.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { json, queryOf } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { recordingFreedTimes } from '../waitlist/free-times.server';
import { timesFreed } from '../times-changed.server';

export const updateBlock = adminAction({
  item: 'blocked date',
  body: blockedDateSchema,
  run: async ({ db, session, ctx, params: { id }, body: input }) => {
    if (input.end_date) throw new AppError('invalid-input', 'A range is saved as a new block.', { end_date: ['admin.errors.rangeOnlyNew'] });
    const keys = await dataKeyRingIfAny();
    // Like a new block: never over bookings silently (409 has-bookings unless `bookings` says what becomes of them).
    const saved = await audited(db, session, { action: 'update', entity: 'blocked-date', entityId: id, label: (o: BlockOutcome) => auditLabel.block(o.blocked[0]!) }, (tx) =>
      // What the change frees is noted for the waitlist in the same transaction (docs/decisions/038-waitlist-offers-for-freed-times.md).
      recordingFreedTimes(tx, {}, () => saveBlock(tx, session, input, keys, { replace: id, ...messageOptions(input) })),
    );
    deliverAfterResponse(ctx);
    const cancelled = cancelledRows(saved.cancelled);
    // A changed block may free times: the waitlist is asked (docs/decisions/032).
    timesFreed(ctx);
    return json(input.bookings ? { blocked: saved.blocked, cancelled, kept: keptBookings(saved.kept) } : saved.blocked[0]);
  },
});

export const liftBlock = adminAction({
  item: 'blocked date',
  run: async ({ db, session, ctx, req, params: { id } }) => {
    // `?scope=range`: every day of the range this block belongs to (docs/decisions/021).
    const scope = queryOf(req).scope === 'range' ? 'range' : 'one';
    await audited(db, session, { action: 'delete', entity: 'blocked-date', entityId: id, label: auditLabel.block }, (tx) =>
      recordingFreedTimes(tx, {}, () => deleteBlockedDate(tx, id, scope)),
    );
    // A lifted block frees its times: the waitlist is asked (docs/decisions/032).
    timesFreed(ctx);
    return new Response(null, { status: 204 });
  },
});
