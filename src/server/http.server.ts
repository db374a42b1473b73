/**
 * The thin HTTP shell shared by every function: parse → domain → respond.
 * Problem details follow RFC 9457 (docs/architecture.md, HTTP API).
 */
import { isDatabaseUnavailable, unavailableCode } from '../../db/errors';
import { AppError, type FieldErrors } from '../lib/errors';
import { unacceptableStrings } from '../lib/text-input';
import type * as z from '../lib/zod';
import { readEnv } from './env.server';
import { withSecurityHeaders } from './security-headers';

/** What our handlers use of Netlify's Context; the local server provides the same. */
export interface RequestContext {
  params: Record<string, string>;
  ip: string;
  /**
   * Keeps the function alive for work that runs after the answer (Netlify's
   * context.waitUntil); the local server waits for it before shutting down.
   */
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * Runs `work` after the answer, so the answer never waits on it (and its
 * timing reveals nothing of it). It starts on a later turn of the event
 * loop, once the handler has returned its answer: work that keeps the CPU
 * busy (the embedded database runs in this thread) cannot delay the answer
 * either. A failure is logged by its name only: messages can quote
 * addresses.
 */
export function afterResponse(ctx: RequestContext, label: string, work: () => Promise<void>): void {
  ctx.waitUntil(
    new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((error: unknown) => console.warn(`${label} failed: ${error instanceof Error ? error.name : 'unknown error'}`)),
  );
}

export type Handler = ((req: Request, ctx: RequestContext) => Promise<Response> | Response) & {
  /** The methods a route() handler serves, for servers that answer 405 before calling it. */
  allow?: string;
};

export const MAX_BODY_BYTES = 64 * 1024;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  // No store unless the answer says how it may be kept (availability: docs/decisions/044).
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function problem(
  status: number,
  type: string,
  detail?: string,
  errors?: FieldErrors,
  headers?: HeadersInit,
  extra?: Record<string, unknown>,
): Response {
  const body: Record<string, unknown> = { ...extra, type, title: TITLES[status] ?? 'Error', status };
  if (detail) body.detail = detail;
  if (errors && status === 400) body.errors = errors;
  const h = new Headers(headers);
  h.set('content-type', 'application/problem+json; charset=utf-8');
  h.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { status, headers: h });
}

/** Retry-After of a 503 database-unavailable: a busy pool frees up in moments, a restarting database in seconds. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Retry-After of a 429 whose limit did not say when it frees up. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

/** Every 429 of the site says when to try again (Retry-After), whether it answers JSON or a page. */
export function retryAfterHeaders(error: AppError): Record<string, string> | undefined {
  return error.status === 429
    ? { 'retry-after': String(Math.max(1, Math.ceil(error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS))) }
    : undefined;
}

export function errorResponse(error: unknown): Response {
  if (error instanceof AppError) {
    return problem(error.status, error.code, error.detail, error.fieldErrors, retryAfterHeaders(error), error.extra);
  }
  if (isDatabaseUnavailable(error)) {
    // The code only: driver messages can quote values.
    const code = unavailableCode(error);
    console.error(`database unavailable${code ? ` code=${String(code)}` : ''}`);
    // Also a pool with every connection busy past its wait (a rush): the client may try again shortly.
    return problem(503, 'database-unavailable', 'The database is not reachable right now. Please try again in a moment.', undefined, {
      'retry-after': String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  logUnexpected(error);
  const response = problem(500, 'internal-error', 'An unexpected error occurred.');
  unexpected.set(response, error);
  return response;
}

/** The bug behind each answer 500, for the error report (http/observe.server.ts) after the answer. */
const unexpected = new WeakMap<Response, unknown>();

/** The error an answer 500 was made of, or undefined for any other answer. */
export function unexpectedErrorOf(response: Response): unknown {
  return unexpected.get(response);
}

/**
 * Logs a bug without the error's message: driver messages can quote the
 * values of a failed row ("Key (x)=(…)"), and nothing a patient entered may
 * reach a log.
 */
function logUnexpected(error: unknown): void {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const constraint = (error as { constraint?: unknown }).constraint;
    const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at ')).slice(0, 8);
    console.error(`unexpected ${error.name}${code ? ` code=${String(code)}` : ''}${constraint ? ` constraint=${String(constraint)}` : ''}\n${frames.join('\n')}`);
  } else {
    console.error('unexpected non-error thrown');
  }
}

type MethodHandlers = Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', Handler>>;

/** Dispatches by method, answers 405 with Allow otherwise, turns errors into problems, adds the security headers. */
export function route(handlers: MethodHandlers): Handler {
  const allowed = Object.keys(handlers).join(', ');
  const handler: Handler = async (req, ctx) => {
    const methodHandler = handlers[req.method as keyof MethodHandlers];
    let response: Response;
    if (!methodHandler) {
      response = problem(405, 'method-not-allowed', `Use ${allowed}.`, undefined, { allow: allowed });
    } else {
      try {
        // Fails closed: in production a missing variable answers 503 not-configured.
        readEnv();
        response = await methodHandler(req, ctx);
      } catch (error) {
        response = errorResponse(error);
      }
    }
    // Netlify's [[headers]] do not reach function responses; every function sets them itself.
    withSecurityHeaders(response.headers);
    return response;
  };
  handler.allow = allowed;
  return handler;
}

/**
 * Reads a JSON body of at most 64 KiB; 413 above, 415 for other media
 * types, 400 for bad JSON, and 400 naming each field whose string holds a
 * NUL, another control character (TAB, LF and CRLF aside), a format (bidi)
 * character, a noncharacter or a lone surrogate: the floor under every
 * field's own rules, before anything reaches the database
 * (docs/architecture.md, Security). For a body with a schema, readJsonInput
 * lets the field's own rule speak first; an action that checks its body
 * itself passes `explain`, which may throw its own 400 for such a body.
 */
export async function readJson(req: Request, limit = MAX_BODY_BYTES, explain?: (body: unknown) => Promise<void> | void): Promise<unknown> {
  const body = await readJsonUnchecked(req, limit);
  const refused = unacceptableStrings(body);
  if (Object.keys(refused).length > 0) {
    // An action that checks its body itself may name the field more precisely (pure checks, nothing written).
    await explain?.(body);
    throw hiddenCharacters(refused);
  }
  return body;
}

/**
 * Reads a JSON body and parses it with its schema, under the same floor as
 * readJson: a field the schema refuses keeps the schema's key (the form's
 * own message, e.g. a name's), every other field that breaks the floor is
 * named with `errors.invalidCharacters`, in one 400. Nothing of a refused
 * body reaches an action.
 */
export async function readJsonInput<S extends z.ZodMiniType>(req: Request, schema: S, limit = MAX_BODY_BYTES): Promise<z.output<S>> {
  const body = await readJsonUnchecked(req, limit);
  const refused = unacceptableStrings(body);
  const result = schema.safeParse(body);
  if (!result.success) {
    const errors = fieldErrors(result.error);
    for (const [field, keys] of Object.entries(refused)) errors[field] ??= keys;
    throw new AppError('invalid-input', 'Some fields are missing or invalid.', errors);
  }
  if (Object.keys(refused).length > 0) throw hiddenCharacters(refused);
  return result.data;
}

/**
 * A JSON body another service sends (the mail service's webhook), read
 * without the text floor: such a body carries text the practice never
 * stores (a bounced message's content), and its reader parses and keeps
 * only fields whose schema admits plain identifiers.
 */
export function readForeignJson(req: Request, limit = MAX_BODY_BYTES): Promise<unknown> {
  return readJsonUnchecked(req, limit);
}

/** A body another service signs (the SMS provider's webhook), as the exact text that was signed; at most `limit` bytes. */
export async function readForeignText(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > limit) throw new AppError('payload-too-large', `The body is larger than ${limit} bytes.`);
  return new TextDecoder().decode(await readLimited(req, limit));
}

function hiddenCharacters(errors: FieldErrors): AppError {
  return new AppError('invalid-input', 'Some fields hold control, format or other invisible characters.', errors);
}

async function readJsonUnchecked(req: Request, limit: number): Promise<unknown> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > limit) throw new AppError('payload-too-large', `The body is larger than ${limit} bytes.`);
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new AppError('unsupported-media-type', 'Send the body as application/json.');
  }
  const bytes = await readLimited(req, limit);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError('invalid-input', 'The body is not valid JSON.', { body: ['errors.invalidJson'] });
  }
}

async function readLimited(req: Request, limit: number): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new AppError('payload-too-large', `The body is larger than ${limit} bytes.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** zod's issues as the problem's `errors`: field → translation keys (the issue message is the key). */
export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
    const key = issue.message.startsWith('errors.') || issue.message.includes('.errors.') ? issue.message : 'errors.invalid';
    (out[field] ??= []).includes(key) || out[field]!.push(key);
  }
  return out;
}

/** Parses with a shared zod schema; 400 with field errors when it does not fit. */
export function parseInput<S extends z.ZodMiniType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new AppError('invalid-input', 'Some fields are missing or invalid.', fieldErrors(result.error));
  }
  return result.data;
}

/** The query string as a plain object (last value wins). */
export function queryOf(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams);
}

/** Whether the body is an HTML form post (application/x-www-form-urlencoded). */
export function isFormPost(req: Request): boolean {
  return /^application\/x-www-form-urlencoded\b/i.test(req.headers.get('content-type') ?? '');
}

/** Reads an HTML form post of at most 64 KiB into a plain object (last value wins); 413 above. */
export async function readForm(req: Request, limit = MAX_BODY_BYTES): Promise<Record<string, string>> {
  const declared = Number(req.headers.get('content-length') ?? 0);
  if (declared > limit) throw new AppError('payload-too-large', `The body is larger than ${limit} bytes.`);
  const bytes = await readLimited(req, limit);
  return Object.fromEntries(new URLSearchParams(new TextDecoder().decode(bytes)));
}

/**
 * 303 See Other to `location` (a path of this site): a form post's answer
 * that the browser fetches with GET, so a reload shows the answer again
 * instead of sending the form again (Post/Redirect/Get).
 */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}

export function html(body: string, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'text/html; charset=utf-8');
  headers.set('cache-control', 'no-store');
  return new Response(body, { ...init, headers });
}
