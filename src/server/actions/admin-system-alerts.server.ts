/**
 * /api/admin/system/alerts: one's own "Störungsmeldungen per E-Mail" under
 * "Mein Konto" (docs/decisions/045-operations.md). GET `{ operations_alerts }`,
 * PUT `{ operations_alerts: bool }` answers the same; the switch is in the
 * audit trail.
 */
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema';
import * as z from '../../lib/zod';
import { audited } from '../audit.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

const alertSettingSchema = z.strictObject({ operations_alerts: z.boolean() });

export const ownAlertSetting = adminAction({
  run: async ({ db, session }) => {
    const [row] = await db.select({ on: users.operationsAlerts }).from(users).where(eq(users.id, session.user.id));
    return json({ operations_alerts: row?.on ?? false });
  },
});

export const setOwnAlertSetting = adminAction({
  body: alertSettingSchema,
  run: async ({ db, session, body }) => {
    const on = body.operations_alerts;
    await audited(
      db,
      session,
      { action: 'update', entity: 'system', entityId: 'system', label: on ? 'Störungsmeldungen per E-Mail an' : 'Störungsmeldungen per E-Mail aus' },
      async (tx) => {
        await tx.update(users).set({ operationsAlerts: on }).where(eq(users.id, session.user.id));
        return { id: 'system' };
      },
    );
    return json({ operations_alerts: on });
  },
});
