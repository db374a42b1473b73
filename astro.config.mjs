// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import netlify from '@astrojs/netlify';
import tailwindcss from '@tailwindcss/vite';
import inlineScriptCsp from './src/integrations/inline-script-csp.ts';
import pwa from './src/integrations/pwa.ts';
import islandTranslations from './src/i18n/island-translations.ts';

// Every page is prebuilt as static HTML; the API lives in netlify/functions.
// German is the default language at the root, English is mirrored under /en/.
export default defineConfig({
  site: process.env.SITE_URL ?? 'http://localhost:4321',
  output: 'static',
  adapter: netlify(),
  // inlineScriptCsp after every integration that writes HTML: it hashes the
  // inline scripts of the finished pages. pwa() after it, so the service
  // worker's precache revisions are those of the final pages.
  integrations: [react(), inlineScriptCsp(), pwa()],
  trailingSlash: 'ignore',
  build: { format: 'directory' },
  i18n: {
    defaultLocale: 'de',
    locales: ['de', 'en'],
    routing: { prefixDefaultLocale: false, redirectToDefaultLocale: false },
  },
  vite: {
    plugins: [tailwindcss(), islandTranslations()],
  },
  server: { port: Number(process.env.PORT ?? 4321) },
});
