/**
 * The security headers of every page and API response, defined once.
 * Used by the local server (scripts/serve.ts), by every function (route() in
 * http.server.ts) and copied into netlify.toml, which a test keeps equal.
 *
 * The Content-Security-Policy is split on purpose. A header and a <meta>
 * policy are both enforced, so a header `script-src 'self'` would block the
 * inline scripts Astro writes (island runtime, small page scripts) even if
 * the page's meta listed their hashes. Hence:
 * - the header (static, the same for every response) governs everything
 *   but script elements, including frame-ancestors which a meta cannot set;
 * - each built page carries a meta policy `script-src 'self' 'sha256-…'`
 *   with the hashes of exactly its own inline scripts, written at build
 *   time by src/integrations/inline-script-csp.ts. No 'unsafe-inline',
 *   no 'unsafe-eval', no third-party origin.
 */
export const CONTENT_SECURITY_POLICY = [
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "worker-src 'self'",
  "media-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "script-src-attr 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
});

/** The policy a built page puts in its <meta http-equiv>: scripts from this site or with these hashes only. */
export function pageScriptPolicy(scriptHashes: string[]): string {
  const sources = ["'self'", ...[...new Set(scriptHashes)].sort().map((h) => `'${h}'`)];
  return [`script-src ${sources.join(' ')}`, "object-src 'none'", "base-uri 'self'"].join('; ');
}

/** Adds the security headers to a Headers object, keeping any a response set itself. */
export function withSecurityHeaders(headers: Headers): Headers {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return headers;
}
