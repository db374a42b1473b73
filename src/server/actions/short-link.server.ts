/**
 * GET /k/:code, the short link of an SMS (docs/decisions/043-sms-second-channel.md):
 * a redirect to the page the matching email links to, or 404. Guessing is
 * limited per client as sign-in failures are: every unknown code counts
 * (SHORT_LINK_MISSES per 15 minutes), and a client over the limit gets 429
 * with Retry-After even for a right code. A right code writes nothing.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { AppError } from '../../lib/errors';
import { practice } from '../../lib/practice';
import { dataKeyRingIfAny } from '../appointment-contact/keys.server';
import { rowsOf } from '../bookings/shared.server';
import { readEnv } from '../env.server';
import { publicAction } from '../http/route.server';
import { clientHit, takeRateLimit, type RateLimit, type RateLimitHit } from '../rate-limit.server';
import { resolveShortLink } from '../sms/short-links.server';

/** Unknown codes a client may try before it must wait. */
export const SHORT_LINK_MISSES: RateLimit = { bucket: 'short-link-client', max: 10, windowSeconds: 15 * 60 };

const TOO_MANY = 'Too many unknown links from this connection. Please try again later.';

/** Seconds until the client may try again, or 0 when it is under the limit (a read). */
async function waitFor(db: Database, hit: RateLimitHit, now: Date): Promise<number> {
  const [row] = rowsOf<{ count: number; retry: number | null }>(
    await db.execute(sql`
      select count(*)::int as count,
        ceil(extract(epoch from (min(h) + make_interval(secs => ${hit.limit.windowSeconds}) - ${now.toISOString()}::timestamptz)))::int as retry
      from rate_limits r, unnest(r.hits) as h
      where r.bucket = ${hit.limit.bucket} and r.key_hash = ${hit.key}
        and h > ${now.toISOString()}::timestamptz - make_interval(secs => ${hit.limit.windowSeconds})`),
  );
  return row && Number(row.count) >= hit.limit.max ? Math.max(1, Number(row.retry ?? 1)) : 0;
}

function notFound(): Response {
  const phone = practice.phone;
  const body = `<!doctype html><html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Link ungültig</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem">
<h1>Dieser Link ist ungültig oder abgelaufen.</h1><p>Bitte rufen Sie uns an: <a href="tel:${phone.replace(/[^\d+]/g, '')}">${phone}</a></p>
<p lang="en">This link is invalid or has expired. Please call us: ${phone}</p></body></html>`;
  return new Response(body, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
}

export async function followShortLink(db: Database, code: string, ip: string, now: Date = new Date()): Promise<Response> {
  const hit = clientHit(SHORT_LINK_MISSES, ip);
  const wait = await waitFor(db, hit, now);
  if (wait > 0) throw new AppError('rate-limited', TOO_MANY, undefined, { retryAfterSeconds: wait });
  const path = await resolveShortLink(db, code, await dataKeyRingIfAny(), now);
  if (!path) {
    await takeRateLimit(db, [hit], now, TOO_MANY);
    return notFound();
  }
  return new Response(null, {
    status: 302,
    // The page's address carries a link token: not cached anywhere, not passed on.
    headers: { location: new URL(path, readEnv().SITE_URL).href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}

/** The code is the path's last segment; a link is followed by a phone's browser, so no Origin rule applies to this read. */
export const follow = publicAction({
  run: ({ db, req, ctx }) => followShortLink(db, decodeURIComponent(new URL(req.url).pathname.split('/').filter(Boolean).pop() ?? ''), ctx.ip),
});
