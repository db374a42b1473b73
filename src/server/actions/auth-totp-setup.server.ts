/** /api/auth/totp/setup: the second factor's setup started. */
import { startEnrolment } from '../auth/second-factor.server';
import { json } from '../http.server';
import { sessionAction } from '../http/session-route.server';

export const startSecondFactor = sessionAction({ session: 'enrolment', run: async ({ db, session }) => json(await startEnrolment(db, session)) });
