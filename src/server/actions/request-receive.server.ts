/**
 * POST /api/requests (docs/decisions/036-patient-requests.md): a patient's
 * request as JSON or as the form's post (requests.server.ts). Loaded by
 * the first post a process receives, so the form's settings (GET) never
 * load the request's schema, phone rules and message texts.
 */
import type { Database } from '../../../db/client';
import { isLang, localizedPath, type Lang } from '../../i18n/languages';
import { AppError, type FieldErrors } from '../../lib/errors';
import { formFieldOf, PAGE_LANGUAGE_FIELD, requestFromForm } from '../../lib/request-form';
import { isRequestKind, patientRequestSchema, type PatientRequest, type RequestReceipt } from '../../lib/request-schema';
import { dataKeyRing } from '../appointment-contact/keys.server';
import { assertSameOrigin } from '../auth/origin.server';
import { deliverAfterResponse } from '../email/delivery.server';
import { readEnv } from '../env.server';
import { html, isFormPost, json, parseInput, readForm, readJsonInput, retryAfterHeaders, seeOther, type RequestContext } from '../http.server';
import type { Call } from '../http/route.server';
import { fetchSitePage } from '../page-answer.server';
import { requestPages } from '../built-pages/request-pages';
import type { RequestResult } from '../requests/form-answer.server';
import { settingsIfReadable } from '../requests/settings.server';
import { submitRequest } from '../requests/create.server';

async function submit(db: Database, request: PatientRequest, ctx: RequestContext): Promise<RequestReceipt> {
  const env = readEnv();
  // Details are sealed: without a key, 503 not-configured and nothing is stored.
  const keys = await dataKeyRing();
  const { reference, emailIds } = await submitRequest(db, request, {
    keys,
    clientAddress: ctx.ip,
    siteUrl: env.SITE_URL,
    practiceEmail: env.PRACTICE_EMAIL,
    isProduction: env.isProduction,
  });
  if (emailIds.length) deliverAfterResponse(ctx);
  return { reference };
}

/** The form's fields checked by the API's schema; field errors named as the form names its fields. */
function parseForm(form: Record<string, string>, lang: Lang): PatientRequest {
  const { request, medicationRows } = requestFromForm(form, lang);
  try {
    return parseInput(patientRequestSchema, request) as PatientRequest;
  } catch (error) {
    if (error instanceof AppError && error.fieldErrors) {
      const errors: FieldErrors = {};
      for (const [field, keys] of Object.entries(error.fieldErrors)) errors[formFieldOf(field, medicationRows)] = keys;
      throw new AppError('invalid-input', error.detail, errors);
    }
    throw error;
  }
}

/** A form post: its answer is JSON for the page's script, the site's page otherwise. */
async function formPost(db: Database, req: Request, ctx: RequestContext): Promise<Response> {
  const form = await readForm(req);
  const lang: Lang = isLang(form[PAGE_LANGUAGE_FIELD]) ? (form[PAGE_LANGUAGE_FIELD] as Lang) : 'de';
  if ((req.headers.get('accept') ?? '').includes('application/json')) {
    assertSameOrigin(req);
    return json(await submit(db, parseForm(form, lang), ctx), { status: 201 });
  }
  // The page's answer (an HTML parser and the page's texts) only for a post without JavaScript.
  const answer = import('../requests/form-answer.server');
  const page = async (result: RequestResult, status: number, headers?: HeadersInit) => {
    const [sitePage, settings, { requestPageHtml, valuesToKeep }] = await Promise.all([
      fetchSitePage(readEnv().SITE_URL, localizedPath('/anfrage', lang), requestPages),
      settingsIfReadable(db),
      answer,
    ]);
    return html(requestPageHtml({ lang, result, values: valuesToKeep(result, form), settings }, sitePage), { status, headers });
  };
  try {
    assertSameOrigin(req);
    const { reference } = await submit(db, parseForm(form, lang), ctx);
    return seeOther((await answer).sentPageLocation(reference, lang));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'invalid-input') return page({ kind: 'invalid', errors: error.fieldErrors ?? {} }, 400);
    if (error.code === 'request-kind-closed' && isRequestKind(form.kind)) return page({ kind: 'closed', requestKind: form.kind }, 409);
    if (error.code === 'rate-limited') return page({ kind: 'rate-limited' }, 429, retryAfterHeaders(error));
    if (error.code === 'forbidden') return page({ kind: 'refused' }, 403);
    if (error.status >= 500) return page({ kind: 'failed' }, error.status);
    throw error;
  }
}

/** The Origin is checked here: a refused form post is answered with the page. */
export async function receive({ db, req, ctx }: Call<undefined, undefined>): Promise<Response> {
  if (isFormPost(req)) return formPost(db, req, ctx);
  assertSameOrigin(req);
  const request = (await readJsonInput(req, patientRequestSchema)) as PatientRequest;
  return json(await submit(db, request, ctx), { status: 201 });
}
