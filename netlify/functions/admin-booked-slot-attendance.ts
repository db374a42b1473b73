import { getDb } from '../../db/client';
import { attendanceSchema } from '../../src/lib/admin-schemas';
import { setAttendance, type AttendanceDto } from '../../src/server/admin/attendance.server';
import { itemId } from '../../src/server/admin/shared.server';
import { auditLabel } from '../../src/server/audit-labels.server';
import { audited } from '../../src/server/audit.server';
import { requireAdmin } from '../../src/server/auth/auth.server';
import { json, parseInput, readJson, route } from '../../src/server/http.server';

export default route({
  PUT: async (req, ctx) => {
    const db = await getDb();
    const session = await requireAdmin(req, db);
    const id = itemId(ctx, 'booked slot');
    const { attendance } = parseInput(attendanceSchema, await readJson(req));
    const label = (row: AttendanceDto) => auditLabel.attendance(row);
    return json(await audited(db, session, { action: 'attendance', entity: 'booked-slot', entityId: id, label }, (tx) => setAttendance(tx, id, attendance)));
  },
});

export const config = { path: '/api/admin/booked-slots/:id/attendance' };
