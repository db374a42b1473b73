/** /api/admin/blocked-dates: blocks listed and created (a day, a range, over bookings or not). */
import { blockedDateSchema } from '../../lib/admin-schemas';
import { formatShortDate } from '../../lib/dates';
import { cancelledRows, keptBookings, messageOptions, saveBlock } from '../admin/block-bookings.server';
import { listBlockedDates } from '../admin/blocked-dates.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { timesTaken } from '../times-changed.server';

/** "08.01.2030, alle Terminarten", for a range "08.01.2030, alle Terminarten bis 12.01.2030". */
function rangeLabel(rows: Array<Parameters<typeof auditLabel.block>[0]>): string {
  const label = auditLabel.block(rows[0]!);
  return rows.length > 1 ? `${label} bis ${formatShortDate(rows.at(-1)!.date)}` : label;
}

export const listBlocks = adminAction({ run: async ({ db }) => json(await listBlockedDates(db)) });

export const createBlock = adminAction({
  body: blockedDateSchema,
  run: async ({ db, session, ctx, body: input }) => {
    const keys = await dataKeyRingIfAny();
    // 409 has-bookings when it covers bookings and the request does not say what becomes of them.
    const saved = await audited(db, session, { action: 'create', entity: 'blocked-date', label: (o: { blocked: Array<Parameters<typeof auditLabel.block>[0]> }) => rangeLabel(o.blocked) }, async (tx) => {
      const outcome = await saveBlock(tx, session, input, keys, messageOptions(input));
      return { id: outcome.blocked[0]!.id, ...outcome };
    });
    deliverAfterResponse(ctx);
    // Its times are closed (for one type, or every type).
    timesTaken(ctx, input.appointment_type_id);
    const cancelled = cancelledRows(saved.cancelled);
    // A range or a choice answers the rows and the cancellations (and the begun bookings kept); a plain block its row, as before.
    return json(input.end_date || input.bookings ? { blocked: saved.blocked, cancelled, kept: keptBookings(saved.kept) } : saved.blocked[0], { status: 201 });
  },
});
