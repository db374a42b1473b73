/**
 * The sitemap: every public page in both languages with its hreflang
 * twins. Routes are discovered from src/pages (so pages other issues add,
 * like /termin or /install, appear without editing this file); pages that
 * must not be indexed are excluded here.
 */
import { localizedPath } from '../i18n/languages';

/** Routes search engines should not list: admin, login, setup, cancellation links, a request's status link, the 404 page. */
const EXCLUDED = /^\/(404|500|auth|admin|admin-setup|termin\/absagen|termin\/warteliste|anfrage\/status)(\/|$)/;

/** "./pages/en/team.astro" → "/team"; null for dynamic or non-page files. */
export function routeOf(file: string): string | null {
  const match = /^(?:.*\/)?pages(\/.*)\.(astro|md|mdx)$/.exec(file);
  if (!match) return null;
  let route = match[1]!.replace(/\/index$/, '') || '/';
  if (route.includes('[') || route.split('/').some((segment) => segment.startsWith('_'))) return null;
  route = localizedPath(route, 'de');
  return EXCLUDED.test(route) ? null : route;
}

export function sitemapRoutes(files: string[]): string[] {
  const routes = new Set<string>();
  for (const file of files) {
    const route = routeOf(file);
    if (route) routes.add(route);
  }
  return [...routes].sort();
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function sitemapXml(routes: string[], site: URL | string): string {
  const entries = routes.flatMap((route) => {
    const de = new URL(localizedPath(route, 'de'), site).href;
    const en = new URL(localizedPath(route, 'en'), site).href;
    const alternates = [
      `    <xhtml:link rel="alternate" hreflang="de" href="${xml(de)}"/>`,
      `    <xhtml:link rel="alternate" hreflang="en" href="${xml(en)}"/>`,
      `    <xhtml:link rel="alternate" hreflang="x-default" href="${xml(de)}"/>`,
    ].join('\n');
    return [de, en].map((loc) => `  <url>\n    <loc>${xml(loc)}</loc>\n${alternates}\n  </url>`);
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}
