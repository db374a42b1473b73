/**
 * The route tables behind a session (the shape is route.server.ts's):
 * - adminRoute: the back office's guard before anything is parsed
 *   (requireAdmin: the Origin check, a session whose second factor is in
 *   order, admin rights), then the path's item, the query and the body.
 * - sessionRoute: a signed-in account's own routes ("Mein Konto"): the
 *   Origin check, then the session (`'required'`, or `'enrolment'` for a
 *   session that must still set up its second factor), then the input.
 */
import { getDb } from '../database.server';
import { itemId } from '../admin/shared.server';
import { requireAdmin, requireSession } from '../auth/auth.server';
import { assertSameOrigin } from '../auth/origin.server';
import { route, type Handler } from '../http.server';
import { observed } from './observe.server';
import { parseRequest, type Call, type Method, type Spec } from './route.server';

export type Session = Awaited<ReturnType<typeof requireSession>>;

export interface SessionCall<B, Q> extends Call<B, Q> {
  session: Session;
}

export type AdminAction<B = undefined, Q = undefined> = Spec<B, Q, SessionCall<B, Q>> & {
  /** What the path's :id names ("blocked date"): 404 "Unknown blocked date." unless it is a UUID. */
  item?: string;
};

export type SessionAction<B = undefined, Q = undefined> = Spec<B, Q, SessionCall<B, Q>> & {
  session: 'required' | 'enrolment';
  /** What the path's :id names ("passkey"): 404 "Unknown passkey." unless it is a UUID. */
  item?: string;
};

/** Typed identity: infers the body's and the query's types from their schemas. */
export function adminAction<B = undefined, Q = undefined>(spec: AdminAction<B, Q>): AdminAction<B, Q> {
  return spec;
}

/** Typed identity: infers the body's and the query's types from their schemas. */
export function sessionAction<B = undefined, Q = undefined>(spec: SessionAction<B, Q>): SessionAction<B, Q> {
  return spec;
}

// Tables hold actions of any body and query; each action was checked where it was written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAdminAction = AdminAction<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySessionAction = SessionAction<any, any>;

/** A staff route: every method behind requireAdmin. */
export function adminRoute(actions: Partial<Record<Method, AnyAdminAction>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, spec] of Object.entries(actions) as Array<[Method, AnyAdminAction]>) {
    handlers[method] = async (req, ctx) => {
      // The guard first: a request without a session is refused before the database is opened.
      const session = await requireAdmin(req);
      const db = await getDb();
      const params = { id: spec.item ? itemId(ctx, spec.item) : '' };
      return spec.run({ req, ctx, db, session, params, ...(await parseRequest(req, spec)) });
    };
  }
  return observed(route(handlers));
}

/** A signed-in account's own route: the Origin rule, then the session each action asks for. */
export function sessionRoute(actions: Partial<Record<Method, AnySessionAction>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, spec] of Object.entries(actions) as Array<[Method, AnySessionAction]>) {
    handlers[method] = async (req, ctx) => {
      assertSameOrigin(req);
      const session = await requireSession(req, undefined, { enrolment: spec.session === 'enrolment' });
      const db = await getDb();
      const params = { id: spec.item ? itemId(ctx, spec.item) : '' };
      return spec.run({ req, ctx, db, session, params, ...(await parseRequest(req, spec)) });
    };
  }
  return observed(route(handlers));
}
