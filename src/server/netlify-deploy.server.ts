/**
 * The deploy that serves the current request, from Netlify's runtime
 * context (`globalThis.Netlify.context`, set per request by Netlify's
 * function bootstrap: the deploy's context from its x-nf-deploy-context
 * header, the site's name from SITE_NAME, the request URL Netlify routed).
 * netlify.toml's build variables (CONTEXT, DEPLOY_PRIME_URL) never reach a
 * function, so this is the only way a function knows it is a preview.
 */
import { isPublicHttpsOrigin } from '../lib/site-url';

interface NetlifyRequestContext {
  deploy?: { context?: string };
  site?: { name?: string };
  url?: URL;
}

function requestContext(): NetlifyRequestContext | null {
  return (globalThis as { Netlify?: { context?: NetlifyRequestContext | null } }).Netlify?.context ?? null;
}

const PREVIEW_CONTEXTS = new Set(['deploy-preview', 'branch-deploy']);

/**
 * A deploy preview's or branch deploy's own origin
 * (`https://<deploy-preview-7 | branch>--<site name>.netlify.app`), or null:
 * in production, outside Netlify, or for any host that is not one of this
 * site's deploy addresses. Netlify routes such a host only to this site's
 * deploys, so another site's preview never matches.
 */
export function previewDeployOrigin(): string | null {
  const context = requestContext();
  if (!context || !PREVIEW_CONTEXTS.has(context.deploy?.context ?? '')) return null;
  const siteName = context.site?.name;
  const url = context.url;
  if (!siteName || !url || url.protocol !== 'https:' || url.port) return null;
  const host = url.hostname.toLowerCase();
  const suffix = `--${siteName.toLowerCase()}.netlify.app`;
  if (!host.endsWith(suffix) || !/^[a-z0-9-]+$/.test(host.slice(0, -suffix.length))) return null;
  return url.origin;
}

/**
 * The site's address from Netlify's own variables, as the build takes it
 * when SITE_URL is unset (src/lib/site-url.ts): a deploy preview
 * or branch deploy its own address (DEPLOY_PRIME_URL), else the site's main
 * address (URL); only a public https origin, else null.
 * docs/decisions/028-hidden-characters-addresses-invitations-origin.md
 */
export function netlifySiteUrl(source: Readonly<Record<string, string | undefined>>): string | null {
  const candidates = PREVIEW_CONTEXTS.has(source.CONTEXT ?? '') ? [source.DEPLOY_PRIME_URL, source.URL] : [source.URL];
  for (const value of candidates) if (isPublicHttpsOrigin(value)) return new URL(value).origin;
  return null;
}
