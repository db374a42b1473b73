/**
 * The route tables behind a session (the shape is route.server.ts's):
 * - adminRoute: the back office's guard before anything is parsed
 *   (requireAdmin: the Origin check, a session whose second factor is in
 *   order, admin rights), then the path's item, the query and the body.
 * - sessionRoute: a signed-in account's own routes ("Mein Konto"): the
 *   Origin check, then the session (`'required'`, or `'enrolment'` for a
 *   session that must still set up its second factor), then the input.
 *
 * A table takes each action as it is or as a loader (`() => import(…)`): a
 * function then loads its actions module, and all it imports (message
 * texts, the phone metadata, WebAuthn's checks), only for a request the
 * guard let through. A request without a session is refused having loaded
 * the guard alone (docs/decisions/023-functions-pre-bundled.md).
 */
import { getDb } from '../database.server';
import { itemId } from '../admin/shared.server';
import { enrolled, requireAdmin, requireSession } from '../auth/auth.server';
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

/** An action, or a loader of it (its module imported on the first request that passes the guard). */
export type Loadable<A> = A | (() => Promise<A>);

/** The action of a loadable, loaded once per process (a failed load is tried again next time). */
export function loaded<A extends object>(loadable: Loadable<A>): () => Promise<A> {
  if (typeof loadable !== 'function') return () => Promise.resolve(loadable);
  let pending: Promise<A> | undefined;
  return () =>
    (pending ??= loadable().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
}

/**
 * Loaders of one module's actions by name, for a route table:
 * `const load = actionsOf(() => import('…')); adminRoute({ GET: load('list') })`.
 */
export function actionsOf<M>(load: () => Promise<M>): <K extends keyof M>(name: K) => () => Promise<M[K]> {
  return (name) => async () => (await load())[name];
}

// Tables hold actions of any body and query; each action was checked where it was written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyAdminAction = AdminAction<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySessionAction = SessionAction<any, any>;

/** A staff route: every method behind requireAdmin. */
export function adminRoute(actions: Partial<Record<Method, Loadable<AnyAdminAction>>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, loadable] of Object.entries(actions) as Array<[Method, Loadable<AnyAdminAction>]>) {
    const action = loaded(loadable);
    handlers[method] = async (req, ctx) => {
      // The guard first: a request without a session is refused before the database is opened or the action loaded.
      const session = await requireAdmin(req);
      const [spec, db] = await Promise.all([action(), getDb()]);
      const params = { id: spec.item ? itemId(ctx, spec.item) : '' };
      return spec.run({ req, ctx, db, session, params, ...(await parseRequest(req, spec)) });
    };
  }
  return observed(route(handlers));
}

/** A signed-in account's own route: the Origin rule, then the session each action asks for. */
export function sessionRoute(actions: Partial<Record<Method, Loadable<AnySessionAction>>>): Handler {
  const handlers: Partial<Record<Method, Handler>> = {};
  for (const [method, loadable] of Object.entries(actions) as Array<[Method, Loadable<AnySessionAction>]>) {
    const action = loaded(loadable);
    handlers[method] = async (req, ctx) => {
      assertSameOrigin(req);
      // Any valid session first (401 before the action loads); then the one the action asks for.
      const signedIn = await requireSession(req, undefined, { enrolment: true });
      const [spec, db] = await Promise.all([action(), getDb()]);
      const session = spec.session === 'enrolment' ? signedIn : enrolled(signedIn);
      const params = { id: spec.item ? itemId(ctx, spec.item) : '' };
      return spec.run({ req, ctx, db, session, params, ...(await parseRequest(req, spec)) });
    };
  }
  return observed(route(handlers));
}
