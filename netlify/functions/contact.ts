import { getDb } from '../../db/client';
import { isLang } from '../../src/i18n/i18n';
import { contactMessageSchema, type ContactMessage, type ContactResponse } from '../../src/lib/contact-message';
import { AppError } from '../../src/lib/errors';
import { assertSameOrigin } from '../../src/server/auth/origin.server';
import { contactResultHtml, fetchContactPage, valuesToKeep, type ContactResult } from '../../src/server/contact-result.server';
import { sendContactMessage, type ContactOutcome } from '../../src/server/contact.server';
import { createEmailSender } from '../../src/server/email/email.server';
import { readEnv } from '../../src/server/env.server';
import { html, isFormPost, json, parseInput, readForm, readJson, retryAfterHeaders, route, type RequestContext } from '../../src/server/http.server';
import { serverHashKey } from '../../src/server/server-key.server';

async function send(message: ContactMessage, ctx: RequestContext): Promise<ContactOutcome> {
  const env = readEnv();
  return sendContactMessage(
    {
      db: await getDb(),
      email: createEmailSender(env),
      practiceEmail: env.PRACTICE_EMAIL,
      secret: serverHashKey(env),
    },
    message,
    ctx.ip,
  );
}

/**
 * The contact form without JavaScript posts here as a plain HTML form: same
 * schema, rate limit and Origin check as the JSON request, answered with a
 * readable page in the form's language (same status codes as the JSON answer).
 */
async function formPost(req: Request, ctx: RequestContext): Promise<Response> {
  const form = await readForm(req);
  const lang = isLang(form.language) ? form.language : 'de';
  // The site's contact page with the outcome and, unless sent, what was typed (contact-result.server.ts).
  const page = async (result: ContactResult, status: number, headers?: HeadersInit) => {
    const sitePage = await fetchContactPage(readEnv().SITE_URL, lang);
    return html(contactResultHtml(result, lang, valuesToKeep(result, form), sitePage), { status, headers });
  };
  try {
    assertSameOrigin(req);
    const outcome = await send(parseInput(contactMessageSchema, form), ctx);
    return outcome.status === 'email-failed' ? page({ kind: 'failed' }, 502) : page({ kind: 'sent' }, 200);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'invalid-input') return page({ kind: 'invalid', errors: error.fieldErrors ?? {} }, 400);
    if (error.code === 'rate-limited') return page({ kind: 'rate-limited' }, 429, retryAfterHeaders(error));
    if (error.code === 'forbidden') return page({ kind: 'refused' }, 403);
    throw error;
  }
}

export default route({
  POST: async (req, ctx) => {
    if (isFormPost(req)) return formPost(req, ctx);
    assertSameOrigin(req);
    const outcome = await send(parseInput(contactMessageSchema, await readJson(req)), ctx);
    if (outcome.status === 'email-failed') {
      return json({ success: false, error: 'The message could not be sent.' } satisfies ContactResponse, { status: 502 });
    }
    return json({ success: true } satisfies ContactResponse);
  },
});

export const config = { path: '/api/contact' };
