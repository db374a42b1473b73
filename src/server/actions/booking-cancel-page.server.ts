/**
 * POST /termin/absagen?token=…, /en/termin/absagen?token=…: the link page's
 * cancel form without JavaScript (it posts to the page's own address, so
 * the token comes in the query, as the page got it). The same cancellation
 * as POST /api/bookings/cancel, behind the same Origin rule, answered with
 * the link page saying how it went, with the API's status code
 * (bookings/cancel-answer.server.ts;
 * docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
 */
import { isDatabaseUnavailable } from '../../../db/errors';
import { langFromPath, localizedPath } from '../../i18n/languages';
import { isCancellationToken } from '../../lib/cancellation-token';
import { AppError } from '../../lib/errors';
import { assertSameOrigin } from '../auth/origin.server';
import { cancelAnswerHtml, CONFIRM_FIELD, type CancelledAppointment, type CancelResult } from '../bookings/cancel-answer.server';
import { readEnv } from '../env.server';
import { getDb } from '../database.server';
import { html, readForm } from '../http.server';
import { publicAction } from '../http/route.server';
import { fetchSitePage, ticked } from '../page-answer.server';
import { cancelPages } from '../built-pages/cancel-pages';

const STATUS: Record<CancelResult['kind'], number> = {
  cancelled: 200,
  'cancelled-by-patient': 410,
  'cancelled-by-practice': 410,
  'too-late': 409,
  unknown: 404,
  incomplete: 400,
  unconfirmed: 400,
  refused: 403,
  failed: 503,
};

/** The result an error of the cancellation stands for; null for a bug. */
function resultOf(error: unknown): CancelResult | null {
  if (error instanceof AppError) {
    const appointment = error.extra as CancelledAppointment | undefined;
    if (error.code === 'forbidden') return { kind: 'refused' };
    if (error.code === 'not-found') return { kind: 'unknown' };
    if (error.code === 'too-late') return { kind: 'too-late' };
    if ((error.code === 'cancelled-by-patient' || error.code === 'cancelled-by-practice') && appointment) return { kind: error.code, appointment };
    if (error.status >= 500 || error.code === 'payload-too-large') return { kind: 'failed' };
    return null;
  }
  return isDatabaseUnavailable(error) ? { kind: 'failed' } : null;
}

/** The Origin is checked here: a refused post is answered with the page (saying so, nothing changed). */
export const cancelWithoutScript = publicAction({
  origin: 'checked-by-action',
  database: 'opened-by-action',
  run: async ({ req, ctx }) => {
    const lang = langFromPath(new URL(req.url).pathname);
    const answer = async (result: CancelResult) => {
      const sitePage = await fetchSitePage(readEnv().SITE_URL, localizedPath('/termin/absagen', lang), cancelPages);
      return html(cancelAnswerHtml(result, lang, sitePage), { status: STATUS[result.kind] });
    };
    try {
      assertSameOrigin(req);
      const form = await readForm(req);
      const token = new URL(req.url).searchParams.get('token') ?? '';
      if (!isCancellationToken(token)) return await answer({ kind: 'incomplete' });
      if (!ticked(form[CONFIRM_FIELD])) return await answer({ kind: 'unconfirmed' });
      // The cancellation's code (its emails and SMS) loads for a complete, confirmed post only.
      const { cancelByPatient } = await import('../bookings/patient.server');
      const booking = await cancelByPatient(await getDb(), ctx, token);
      return await answer({ kind: 'cancelled', appointment: booking });
    } catch (error) {
      const result = resultOf(error);
      if (!result) throw error;
      if (result.kind === 'failed' && isDatabaseUnavailable(error)) console.error('database unavailable: a cancellation without JavaScript was not made');
      return answer(result);
    }
  },
});
