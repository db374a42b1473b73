/** /api/admin/waitlist: who waits, for staff only. */
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';
import { staffWaitlist } from '../waitlist/staff.server';

/** Names: staff only, never cached (json() answers no-store), one audit row per answer. */
export const listWaiting = adminAction({ run: async ({ db, session }) => json(await staffWaitlist(db, session, await dataKeyRingIfAny())) });
