import { getDb } from '../../db/client';
import { releaseBookedSlot } from '../../src/server/admin/booked-slots.server';
import { itemId } from '../../src/server/admin/shared.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { route } from '../../src/server/http.server';

export default route({
  DELETE: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'booked slot');
    await audited(db, session, { action: 'release', entity: 'booked-slot', entityId: id, label: auditLabel.booking }, (tx) => releaseBookedSlot(tx, id));
    return new Response(null, { status: 204 });
  },
});

export const config = { path: '/api/admin/booked-slots/:id' };
