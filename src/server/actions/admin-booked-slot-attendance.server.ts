/** /api/admin/booked-slots/:id/attendance: "erschienen" / "nicht erschienen". */
import { attendanceSchema } from '../../lib/admin-schemas';
import { setAttendance, type AttendanceDto } from '../admin/attendance.server';
import { auditLabel } from '../audit-labels.server';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const markAttendance = adminAction({
  item: 'booked slot',
  body: attendanceSchema,
  run: async ({ db, session, params: { id }, body: { attendance } }) => {
    const label = (row: AttendanceDto) => auditLabel.attendance(row);
    return json(await audited(db, session, { action: 'attendance', entity: 'booked-slot', entityId: id, label }, (tx) => setAttendance(tx, id, attendance)));
  },
});
