/**
 * The deploy that serves the current request, from Netlify's runtime
 * context (`globalThis.Netlify.context`, set per request by Netlify's
 * function bootstrap: the deploy's context from its x-nf-deploy-context
 * header, the site's name from SITE_NAME, the request URL Netlify routed).
 * netlify.toml's build variables (CONTEXT, DEPLOY_PRIME_URL) never reach a
 * function, so this is the only way a function knows it is a preview.
 */

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
