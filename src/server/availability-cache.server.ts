/**
 * The month's availability from Netlify's CDN (docs/architecture.md,
 * Availability and capacity; docs/decisions/044): GET /api/availability is
 * the same for every patient, so Netlify's CDN keeps it per type and range
 * (`Netlify-Vary` on exactly its query), tagged per type
 * (`Netlify-Cache-Tag`), for a short while, serving a stale copy while it
 * fetches a fresh one. Every change to a type's times (a booking, a
 * cancellation, a move, a block, a time window, the type itself, the
 * holiday settings) purges that type's tag after the answer, so the next
 * patient sees the change at once; the short max-age bounds what a failed
 * purge can show. The database's re-check when booking stays the only
 * truth: a time the cache still shows but that is taken is answered 409
 * with the next free times.
 *
 * The purge goes through `purgeCache` of `@netlify/functions` (loaded on
 * demand) with the token Netlify gives every function
 * (NETLIFY_PURGE_API_TOKEN); without one (the local server, tests) there is
 * no CDN to purge. A failed purge is logged by its kind and never fails the
 * change.
 */
import { variables } from './env.server';
import { afterResponse, type RequestContext } from './http.server';

/** Every availability answer carries it: a change that touches every type (a block for all types, the holiday settings) purges it. */
export const AVAILABILITY_TAG = 'availability';

/** A type's availability answers. */
export function availabilityTag(typeId: string): string {
  return `${AVAILABILITY_TAG}-${typeId}`;
}

/** Seconds the CDN serves a copy without asking, and then a stale one while it asks. */
export const CDN_MAX_AGE_SECONDS = 30;
export const CDN_STALE_WHILE_REVALIDATE_SECONDS = 60;

/**
 * Headers of a 200 availability answer. Browsers keep nothing (a reload
 * asks the CDN); the CDN keeps it durably (shared by Netlify's edge nodes)
 * per type, from and to.
 */
export function availabilityCacheHeaders(typeId: string): Record<string, string> {
  return {
    'cache-control': 'public, max-age=0, must-revalidate',
    'netlify-cdn-cache-control': `public, durable, max-age=${CDN_MAX_AGE_SECONDS}, stale-while-revalidate=${CDN_STALE_WHILE_REVALIDATE_SECONDS}`,
    'netlify-vary': 'query=type|from|to',
    'netlify-cache-tag': `${AVAILABILITY_TAG}, ${availabilityTag(typeId)}`,
  };
}

/** What a change touched: some types' times, or every type's. */
export type AvailabilityScope = { types: Array<string | null | undefined> } | 'all';

/** The tags a change purges: each type's, or the tag of every answer. */
export function tagsToPurge(scope: AvailabilityScope): string[] {
  if (scope === 'all') return [AVAILABILITY_TAG];
  return [...new Set(scope.types.filter((id): id is string => typeof id === 'string' && id !== ''))].map(availabilityTag);
}

/** Purges the CDN's copies after the answer (nothing when there is no CDN to purge). */
export function purgeAvailability(ctx: RequestContext, scope: AvailabilityScope): void {
  const tags = tagsToPurge(scope);
  if (tags.length === 0) return;
  const source = variables();
  const token = source.NETLIFY_PURGE_API_TOKEN;
  const siteID = source.SITE_ID;
  if (!token || !siteID) return;
  afterResponse(ctx, 'availability cache purge', async () => {
    const { purgeCache } = await import('@netlify/functions');
    await purgeCache({ tags, token, siteID, ...(source.NETLIFY_API_URL ? { apiURL: source.NETLIFY_API_URL.replace(/\/$/, '') } : {}) });
  });
}
