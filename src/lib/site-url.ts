/**
 * The site's public origin for the build (astro.config.mjs `site`): canonical
 * URLs, hreflang alternates, the sitemap and robots.txt all derive from it.
 *
 * - Netlify production context: SITE_URL, else Netlify's own URL (the site's
 *   main address). Neither a real https origin → the build fails, so a
 *   production deploy never publishes http://localhost as its canonical.
 * - Netlify deploy preview / branch deploy: SITE_URL, else the deploy's own
 *   address (DEPLOY_PRIME_URL), else URL.
 * - Elsewhere (local builds, tests): SITE_URL, else http://localhost:4321.
 *   Never PORT: the site is part of the digest of Astro's content store,
 *   and a site that followed the port made every start on another port
 *   clear and rewrite the store (docs/decisions/031-content-editor-second-pass.md).
 */

export class SiteUrlError extends Error {
  override name = 'SiteUrlError';
}

/** An https origin a visitor can reach: no loopback or private-looking host, no path, query or credentials. */
export function isPublicHttpsOrigin(value: string | undefined): value is string {
  if (!value) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.search || url.hash) return false;
  if (url.pathname !== '/') return false;
  const host = url.hostname.toLowerCase();
  if (!host.includes('.') || host.startsWith('[')) return false;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return false;
  // An IP address is no site origin (and 127.0.0.1, 10.x, 192.168.x are not reachable by visitors).
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return false;
  return true;
}

export function siteUrlFor(env: Record<string, string | undefined>): string {
  const onNetlify = env.NETLIFY === 'true';
  const context = env.CONTEXT ?? '';
  if (onNetlify && context === 'production') {
    const source = env.SITE_URL ? 'SITE_URL' : 'URL';
    const value = env.SITE_URL || env.URL;
    if (!isPublicHttpsOrigin(value)) {
      throw new SiteUrlError(
        value
          ? `${source} must be the site's public https origin (like https://www.praxis.example), not ${JSON.stringify(value)}: canonical URLs, hreflang, the sitemap and robots.txt are built from it`
          : "set SITE_URL to the site's public https origin (like https://www.praxis.example) for the production context: canonical URLs, hreflang, the sitemap and robots.txt are built from it",
      );
    }
    return new URL(value).origin;
  }
  if (onNetlify) {
    for (const value of [env.SITE_URL, env.DEPLOY_PRIME_URL, env.URL]) if (value && isPublicHttpsOrigin(value)) return new URL(value).origin;
  }
  return env.SITE_URL || 'http://localhost:4321';
}
