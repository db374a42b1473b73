// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import inlineScriptCsp from './src/integrations/inline-script-csp.ts';
import pwa from './src/integrations/pwa.ts';
import germanHyphenation from './src/integrations/german-hyphenation.ts';
import interactionDirective from './src/integrations/interaction-directive.ts';
import islandTranslations from './src/i18n/island-translations.ts';
import { siteUrlFor } from './src/lib/site-url.ts';
import { contentEditorBuild } from './src/integrations/content-editor-build.ts';
import { safeMarkdown } from './src/integrations/safe-markdown.ts';

/**
 * `astro dev` answers /api/* (and the few page paths a function serves, such
 * as a page's no-JavaScript form post) in its own process with the same
 * handlers the built site uses (scripts/local-server.ts), loaded through
 * Vite so they reload on change. Netlify's own function emulation bundles
 * each function apart (each would open the embedded database on its own)
 * and fails under concurrent requests; this middleware runs before it.
 */
function devApi() {
  /** The page paths functions claim, learnt on the first request: pages stay Astro's otherwise. */
  /** @type {Promise<string[]> | undefined} */
  let pagePaths;
  return {
    name: 'praxis-dev-api',
    enforce: /** @type {const} */ ('pre'),
    /** @param {import('vite').ViteDevServer} server */
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const load = async () => (await server.ssrLoadModule('/scripts/local-server.ts')).loadFunctions('netlify/functions');
        pagePaths ??= load().then((/** @type {any[]} */ routes) => routes.map((r) => r.pattern).filter((p) => !p.startsWith('/api')));
        const pagePath = (await pagePaths).includes(url.pathname.replace(/\/$/, ''));
        if (url.pathname !== '/api' && !url.pathname.startsWith('/api/') && !pagePath) return next();
        try {
          const api = await server.ssrLoadModule('/scripts/local-server.ts');
          const routes = await api.loadFunctions('netlify/functions');
          const route = routes.find((/** @type {any} */ r) => api.routeServes(r, req.method ?? 'GET', url.pathname));
          if (!route) return next();
          await api.callFunctionRoute(route, new URL(req.url ?? '/', `http://${req.headers.host}`), req, res);
        } catch (error) {
          next(error);
        }
      });
    },
  };
}

// Every page is prebuilt as static HTML; the API lives in netlify/functions.
// German is the default language at the root, English is mirrored under /en/.
export default defineConfig({
  // Netlify production: SITE_URL or Netlify's URL, a real https origin, or
  // the build fails. Locally SITE_URL alone, else a fixed
  // http://localhost:4321: never PORT, because the site is part of the
  // config digest of Astro's content store, and a digest that changed with
  // each port cleared and rewrote the store on every start
  // (docs/decisions/031-content-editor-second-pass.md).
  site: siteUrlFor(process.env),
  // The content editor's local rebuild (scripts/content-rebuild.ts) keeps a
  // cache of its own, so it never shares a content store with `npm start`.
  ...(process.env.PRAXIS_ASTRO_CACHE_DIR ? { cacheDir: process.env.PRAXIS_ASTRO_CACHE_DIR } : {}),
  // No adapter: every page is static, and the functions are bundled by
  // scripts/bundle-functions.ts; Netlify serves dist/ as it is
  // (netlify.toml holds its headers, public/_redirects its 404 rules).
  output: 'static',
  // inlineScriptCsp after every integration that writes HTML (germanHyphenation
  // adds soft hyphens to German headings): it hashes the inline scripts of the
  // finished pages. pwa() after it, so the service worker's precache revisions
  // are those of the final pages.
  integrations: [react(), interactionDirective(), germanHyphenation(), inlineScriptCsp(), pwa()],
  markdown: safeMarkdown,
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  i18n: {
    defaultLocale: 'de',
    locales: ['de', 'en'],
    routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
  },
  vite: {
    plugins: [tailwindcss(), islandTranslations(), devApi(), ...contentEditorBuild()],
    // Each chunk's gzip size in the build's log cost seconds of CPU per build.
    build: { reportCompressedSize: false },
  },
});
