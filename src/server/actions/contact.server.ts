/**
 * /api/contact: the contact form's message, as JSON from its island or as
 * a plain HTML form post without JavaScript. The form post has the same
 * schema, rate limit and Origin check as the JSON request, answered with a
 * readable page in the form's language (same status codes as the JSON answer).
 */
import type { Database } from '../../../db/client';
import { isLang } from '../../i18n/languages';
import { contactMessageSchema, type ContactMessage, type ContactResponse } from '../../lib/contact-message';
import { AppError } from '../../lib/errors';
import { assertSameOrigin } from '../auth/origin.server';
import type { ContactResult } from '../contact-result.server';
import { sendContactMessage, type ContactOutcome } from '../contact.server';
import { createEmailSender } from '../email/email.server';
import { readEnv } from '../env.server';
import { html, isFormPost, json, parseInput, readForm, readJsonInput, retryAfterHeaders, type RequestContext } from '../http.server';
import { publicAction } from '../http/route.server';
import { serverHashKey } from '../server-key.server';

async function send(db: Database, message: ContactMessage, ctx: RequestContext): Promise<ContactOutcome> {
  const env = readEnv();
  return sendContactMessage(
    { db, email: createEmailSender(env), practiceEmail: env.PRACTICE_EMAIL, secret: serverHashKey(env) },
    message,
    ctx.ip,
  );
}

async function formPost(db: Database, req: Request, ctx: RequestContext): Promise<Response> {
  const form = await readForm(req);
  const lang = isLang(form.language) ? form.language : 'de';
  // The site's contact page with the outcome and, unless sent, what was typed (contact-result.server.ts),
  // loaded for a post without JavaScript only: it brings an HTML parser.
  const page = async (result: ContactResult, status: number, headers?: HeadersInit) => {
    const { contactResultHtml, fetchContactPage, valuesToKeep } = await import('../contact-result.server');
    const sitePage = await fetchContactPage(readEnv().SITE_URL, lang);
    return html(contactResultHtml(result, lang, valuesToKeep(result, form), sitePage), { status, headers });
  };
  try {
    assertSameOrigin(req);
    const outcome = await send(db, parseInput(contactMessageSchema, form), ctx);
    return outcome.status === 'email-failed' ? page({ kind: 'failed' }, 502) : page({ kind: 'sent' }, 200);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'invalid-input') return page({ kind: 'invalid', errors: error.fieldErrors ?? {} }, 400);
    if (error.code === 'rate-limited') return page({ kind: 'rate-limited' }, 429, retryAfterHeaders(error));
    if (error.code === 'forbidden') return page({ kind: 'refused' }, 403);
    throw error;
  }
}

/** The Origin is checked here: a refused form post is answered with the page. */
export const sendMessage = publicAction({
  origin: 'checked-by-action',
  run: async ({ db, req, ctx }) => {
    if (isFormPost(req)) return formPost(db, req, ctx);
    assertSameOrigin(req);
    const outcome = await send(db, await readJsonInput(req, contactMessageSchema), ctx);
    if (outcome.status === 'email-failed') {
      return json({ success: false, error: 'The message could not be sent.' } satisfies ContactResponse, { status: 502 });
    }
    return json({ success: true } satisfies ContactResponse);
  },
});
