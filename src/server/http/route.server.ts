/**
 * The one shape of every function: a route table mapping methods to
 * actions. The table does the guard, the path's item, the query and the
 * body; the action gets `{ req, ctx, db, session, params, body, query }`
 * and does the use case. Each function imports its own actions module
 * only, so its bundle holds only what its routes reach
 * (docs/decisions/023-functions-pre-bundled.md).
 *
 * - publicRoute (here): the patient's and the sign-in routes: the Origin
 *   check of state-changing requests first, then the input, before the
 *   database is opened.
 * - adminRoute and sessionRoute (session-route.server.ts): behind a
 *   session; kept apart so that public functions do not bundle the
 *   session and admin code.
 */
import type * as z from '../../lib/zod';
import { getDb, type Database } from '../database.server';
import { assertSameOrigin } from '../auth/origin.server';
import { parseInput, queryOf, readJson, readJsonInput, route, type Handler, type RequestContext } from '../http.server';
import { observed } from './observe.server';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What an action receives. `params.id` is the path's item (lower-case UUID) when the action names one, else ''. */
export interface Call<B, Q> {
  req: Request;
  ctx: RequestContext;
  db: Database;
  params: { id: string };
  body: B;
  query: Q;
}

export interface Spec<B, Q, C> {
  /** The JSON body's schema: 415/413/400 as readJson and parseInput answer. */
  body?: z.ZodMiniType<B>;
  /** A JSON body read without a schema (the action parses it). */
  rawBody?: true;
  /** The body limit in bytes when larger than the default. */
  bodyLimit?: number;
  /** The query string's schema. */
  query?: z.ZodMiniType<Q>;
  run(call: C): Promise<Response> | Response;
}

export type PublicAction<B = undefined, Q = undefined> = Spec<B, Q, Call<B, Q>> & {
  /**
   * `checked-by-action`: the action checks the Origin itself (the contact
   * form answers a refusal as a page). `credentials`: not a browser's route
   * (the mail service's webhook); the action checks its credentials first.
   */
  origin?: 'checked-by-action' | 'credentials';
  /**
   * `opened-by-action`: the action reads input the route cannot check (a
   * form post) and opens the database itself (getDb) once that input is
   * complete, so a refused post never loads the database's code; its `db`
   * must not be used.
   */
  database?: 'opened-by-action';
};

/** The `db` of an action that opens the database itself: any use of it is a mistake, and says so. */
const OPENED_BY_ACTION = new Proxy({} as Database, {
  get() {
    throw new Error('this action opens the database itself (getDb)');
  },
});

/** Typed identity: infers the body's and the query's types from their schemas. */
export function publicAction<B = undefined, Q = undefined>(spec: PublicAction<B, Q>): PublicAction<B, Q> {
  return spec;
}

/** The query, then the body, each parsed by its schema (400 with field errors when it does not fit). */
export async function parseRequest<B, Q>(req: Request, spec: Spec<B, Q, never>): Promise<{ query: Q; body: B }> {
  const query = (spec.query ? parseInput(spec.query, queryOf(req)) : undefined) as Q;
  const body = (
    spec.body
      ? await readJsonInput(req, spec.body, spec.bodyLimit)
      : spec.rawBody
        ? await readJson(req, spec.bodyLimit)
        : undefined
  ) as B;
  return { query, body };
}

// Tables hold actions of any body and query; each action was checked where it was written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyPublicAction = PublicAction<any, any>;

/** A patient's or a sign-in route without a session: the Origin rule, then the input, then the database. */
export function publicRoute(actions: Partial<Record<Method, AnyPublicAction>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, spec] of Object.entries(actions) as Array<[Method, AnyPublicAction]>) {
    handlers[method] = async (req, ctx) => {
      if (spec.origin === undefined) assertSameOrigin(req);
      const input = await parseRequest(req, spec);
      const db = spec.database === 'opened-by-action' ? OPENED_BY_ACTION : await getDb();
      return spec.run({ req, ctx, db, params: { id: '' }, ...input });
    };
  }
  return observed(route(handlers));
}
