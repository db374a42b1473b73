/**
 * The one shape of every function: a route table mapping methods to
 * actions. The table does the guard, the path's item, the query and the
 * body; the action gets `{ req, ctx, db, session, params, body, query }`
 * and does the use case. Each function imports its own actions module
 * only, so its bundle holds only what its routes reach
 * (docs/decisions/023-functions-pre-bundled.md).
 *
 * - adminRoute: the back office's guard (requireAdmin: the Origin check,
 *   a session whose second factor is in order, admin rights), in that order,
 *   before anything is parsed.
 * - publicRoute: the patient's and the sign-in routes: the Origin check of
 *   state-changing requests first, then, for an action that needs one, the
 *   session (`session: 'required'`, or `'enrolment'` for a session that must
 *   still set up its second factor); an action without one parses before
 *   the database is opened.
 */
import type { z } from 'zod';
import { getDb, type Database } from '../../../db/client';
import { itemId } from '../admin/shared.server';
import { requireAdmin, requireSession } from '../auth/auth.server';
import { assertSameOrigin } from '../auth/origin.server';
import { parseInput, queryOf, readJson, route, type Handler, type RequestContext } from '../http.server';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type Session = Awaited<ReturnType<typeof requireSession>>;

/** What an action receives. `params.id` is the path's item (lower-case UUID) when the action names one. */
export interface Call<B, Q> {
  req: Request;
  ctx: RequestContext;
  db: Database;
  params: { id: string };
  body: B;
  query: Q;
}

export interface SessionCall<B, Q> extends Call<B, Q> {
  session: Session;
}

interface Spec<B, Q, C> {
  /** What the path's :id names ("blocked date"): 404 "Unknown blocked date." unless it is a UUID. */
  item?: string;
  /** The JSON body's schema: 415/413/400 as readJson and parseInput answer. */
  body?: z.ZodType<B>;
  /** A JSON body read without a schema (the action parses it). */
  rawBody?: true;
  /** The body limit in bytes when larger than the default. */
  bodyLimit?: number;
  /** The query string's schema. */
  query?: z.ZodType<Q>;
  run(call: C): Promise<Response> | Response;
}

export type AdminAction<B = undefined, Q = undefined> = Spec<B, Q, SessionCall<B, Q>>;

export type PublicAction<B = undefined, Q = undefined> =
  | (Spec<B, Q, Call<B, Q>> & {
      session?: undefined;
      /** The action checks the Origin itself (the contact form answers a refusal as a page). */
      origin?: 'checked-by-action';
    })
  | (Spec<B, Q, SessionCall<B, Q>> & { session: 'required' | 'enrolment'; origin?: undefined });

/** Typed identity: infers the body's and the query's types from their schemas. */
export function adminAction<B = undefined, Q = undefined>(spec: AdminAction<B, Q>): AdminAction<B, Q> {
  return spec;
}

/** Typed identity: infers the body's and the query's types from their schemas. */
export function publicAction<B = undefined, Q = undefined>(spec: PublicAction<B, Q>): PublicAction<B, Q> {
  return spec;
}

// Tables hold actions of any body and query; each action was checked where it was written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAdminAction = AdminAction<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyPublicAction = PublicAction<any, any>;

async function parsed<B, Q>(req: Request, ctx: RequestContext, spec: Spec<B, Q, never>) {
  const params = { id: spec.item ? itemId(ctx, spec.item) : '' };
  const query = (spec.query ? parseInput(spec.query, queryOf(req)) : undefined) as Q;
  const body = (
    spec.body
      ? parseInput(spec.body, await readJson(req, spec.bodyLimit))
      : spec.rawBody
        ? await readJson(req, spec.bodyLimit)
        : undefined
  ) as B;
  return { params, query, body };
}

/** A staff route: every method behind requireAdmin. */
export function adminRoute(actions: Partial<Record<Method, AnyAdminAction>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, spec] of Object.entries(actions) as Array<[Method, AnyAdminAction]>) {
    handlers[method] = async (req, ctx) => {
      const db = await getDb();
      const session = await requireAdmin(req, db);
      return spec.run({ req, ctx, db, session, ...(await parsed(req, ctx, spec)) });
    };
  }
  return route(handlers);
}

/** A patient's or a sign-in route: the Origin rule, and a session only where the action asks for one. */
export function publicRoute(actions: Partial<Record<Method, AnyPublicAction>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, spec] of Object.entries(actions) as Array<[Method, AnyPublicAction]>) {
    handlers[method] = async (req, ctx) => {
      if (spec.origin !== 'checked-by-action') assertSameOrigin(req);
      if (spec.session) {
        const db = await getDb();
        const session = await requireSession(req, db, { enrolment: spec.session === 'enrolment' });
        return spec.run({ req, ctx, db, session, ...(await parsed(req, ctx, spec)) });
      }
      const input = await parsed(req, ctx, spec);
      return spec.run({ req, ctx, db: await getDb(), ...input });
    };
  }
  return route(handlers);
}
