import { getDb } from '../../db/client';
import { formatShortDate } from '../../src/lib/dates';
import { blockedDateSchema } from '../../src/lib/admin-schemas';
import { dataKeyRingIfAny } from '../../src/server/appointment-contact/keys.server';
import { keptBookings, notifyBlockCancellations, saveBlock } from '../../src/server/admin/block-bookings.server';
import { listBlockedDates } from '../../src/server/admin/blocked-dates.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

/** "08.01.2030, alle Terminarten", for a range "08.01.2030, alle Terminarten bis 12.01.2030". */
function rangeLabel(rows: Array<Parameters<typeof auditLabel.block>[0]>): string {
  const label = auditLabel.block(rows[0]!);
  return rows.length > 1 ? `${label} bis ${formatShortDate(rows.at(-1)!.date)}` : label;
}

export default route({
  GET: async (req) => {
    const db = await getDb();
    await requireAdmin(req, db);
    return json(await listBlockedDates(db));
  },
  POST: async (req) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const input = parseInput(blockedDateSchema, await readJson(req));
    const keys = await dataKeyRingIfAny();
    // 409 has-bookings when it covers bookings and the request does not say what becomes of them.
    const saved = await audited(db, session, { action: 'create', entity: 'blocked-date', label: (o: { blocked: Array<Parameters<typeof auditLabel.block>[0]> }) => rangeLabel(o.blocked) }, async (tx) => {
      const outcome = await saveBlock(tx, session, input, keys);
      return { id: outcome.blocked[0]!.id, ...outcome };
    });
    // The message goes to the patients only: never stored, audited or logged.
    const cancelled = await notifyBlockCancellations(db, saved.cancelled, input.bookings === 'cancel' ? input.message : undefined);
    // API.md third round: a range or a choice answers the rows and the cancellations (and the begun bookings kept); a plain block its row, as before.
    return json(input.end_date || input.bookings ? { blocked: saved.blocked, cancelled, kept: keptBookings(saved.kept) } : saved.blocked[0], { status: 201 });
  },
});

export const config = { path: '/api/admin/blocked-dates' };
