import { getDb } from '../../db/client';
import { blockedDateSchema } from '../../src/lib/admin-schemas';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { keptBookings, notifyBlockCancellations, saveBlock, type BlockOutcome } from '../../src/server/admin/block-bookings.server';
import { deleteBlockedDate } from '../../src/server/admin/blocked-dates.server';
import { itemId } from '../../src/server/admin/shared.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { AppError } from '../../src/lib/errors';
import { json, parseInput, queryOf, readJson, route } from '../../src/server/http.server';
import { offerAfterResponse } from '../../src/server/waitlist/sweep.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'blocked date');
    const input = parseInput(blockedDateSchema, await readJson(req));
    if (input.end_date) throw new AppError('invalid-input', 'A range is saved as a new block.', { end_date: ['admin.errors.rangeOnlyNew'] });
    const keys = await dataKeyRingIfAny();
    // Like a new block: never over bookings silently (409 has-bookings unless `bookings` says what becomes of them).
    const saved = await audited(db, session, { action: 'update', entity: 'blocked-date', entityId: id, label: (o: BlockOutcome) => auditLabel.block(o.blocked[0]!) }, (tx) =>
      saveBlock(tx, session, input, keys, { replace: id }),
    );
    const cancelled = await notifyBlockCancellations(db, saved.cancelled, input.bookings === 'cancel' ? input.message : undefined);
    // A changed block may free times: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx);
    return json(input.bookings ? { blocked: saved.blocked, cancelled, kept: keptBookings(saved.kept) } : saved.blocked[0]);
  },
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'blocked date');
    // `?scope=range`: every day of the range this block belongs to (docs/decisions/021).
    const scope = queryOf(req).scope === 'range' ? 'range' : 'one';
    await audited(db, session, { action: 'delete', entity: 'blocked-date', entityId: id, label: auditLabel.block }, (tx) => deleteBlockedDate(tx, id, scope));
    // A lifted block frees its times: the waitlist is asked (docs/decisions/032).
    offerAfterResponse(ctx);
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/blocked-dates/:id' };
