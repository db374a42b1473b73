/**
 * A stand-in for Netlify's CDN in front of the rush benchmark's functions
 * (docs/decisions/044): it keeps a GET answer as its
 * `Netlify-CDN-Cache-Control` allows (max-age, then stale-while-revalidate:
 * the stale copy is served while one request fetches a fresh one), keyed by
 * the path and the query parameters `Netlify-Vary` names, and forgets every
 * copy tagged (`Netlify-Cache-Tag`) with a tag the purge API is asked to
 * purge. The purge API is Netlify's (`POST /api/v1/purge`, a bearer token,
 * `cache_tags`), served on a port of its own: the functions' purgeCache()
 * reaches it through NETLIFY_API_URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OriginAnswer {
  status: number;
  headers: Headers;
  body: string;
}

interface Copy extends OriginAnswer {
  storedAt: number;
  maxAgeMs: number;
  staleMs: number;
  tags: string[];
  refreshing: boolean;
}

export interface CdnCounts {
  requests: number;
  /** Requests that reached the function (misses, and refreshes of stale copies). */
  origin: number;
  purges: number;
}

function seconds(header: string | null, name: string): number {
  const match = new RegExp(`(?:^|,)\\s*${name}=(\\d+)`).exec(header ?? '');
  return match ? Number(match[1]) * 1000 : 0;
}

export class CdnStandIn {
  private copies = new Map<string, Copy>();
  private varyByPath = new Map<string, string[]>();
  readonly counts: CdnCounts = { requests: 0, origin: 0, purges: 0 };

  constructor(private readonly origin: (url: URL) => Promise<OriginAnswer>) {}

  private key(url: URL): string | null {
    const vary = this.varyByPath.get(url.pathname);
    if (!vary) return null;
    return `${url.pathname}?${vary.map((name) => `${name}=${url.searchParams.get(name) ?? ''}`).join('&')}`;
  }

  private async fetchAndStore(url: URL): Promise<OriginAnswer> {
    this.counts.origin++;
    const answer = await this.origin(url);
    const control = answer.headers.get('netlify-cdn-cache-control');
    const maxAgeMs = seconds(control, 'max-age');
    if (answer.status === 200 && maxAgeMs > 0 && !/no-store|private/.test(control ?? '')) {
      const vary = /query=([^,]+)/.exec(answer.headers.get('netlify-vary') ?? '')?.[1]?.split('|') ?? [];
      this.varyByPath.set(url.pathname, vary);
      const tags = (answer.headers.get('netlify-cache-tag') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
      this.copies.set(this.key(url)!, { ...answer, storedAt: Date.now(), maxAgeMs, staleMs: seconds(control, 'stale-while-revalidate'), tags, refreshing: false });
    }
    return answer;
  }

  /** A GET through the CDN: a fresh copy, a stale one (refreshed behind it), or the function's answer. */
  async get(url: URL): Promise<OriginAnswer & { hit: boolean }> {
    this.counts.requests++;
    const key = this.key(url);
    const copy = key ? this.copies.get(key) : undefined;
    if (copy) {
      const age = Date.now() - copy.storedAt;
      if (age <= copy.maxAgeMs) return { ...copy, hit: true };
      if (age <= copy.maxAgeMs + copy.staleMs) {
        if (!copy.refreshing) {
          copy.refreshing = true;
          void this.fetchAndStore(url).catch(() => (copy.refreshing = false));
        }
        return { ...copy, hit: true };
      }
    }
    return { ...(await this.fetchAndStore(url)), hit: false };
  }

  /** Forgets every copy carrying one of the tags. */
  purge(tags: string[]): void {
    this.counts.purges++;
    for (const [key, copy] of this.copies) if (copy.tags.some((t) => tags.includes(t))) this.copies.delete(key);
  }

  /** Netlify's purge API on a local port: `POST /api/v1/purge` with the bearer token. */
  async listen(token: string): Promise<{ url: string; close: () => Promise<void> }> {
    const server = http.createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      if (req.method !== 'POST' || req.url !== '/api/v1/purge' || req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { cache_tags?: string[] };
      this.purge(body.cache_tags ?? []);
      res.writeHead(202).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }
}
