import type { APIRoute } from 'astro';
import { sitemapRoutes, sitemapXml } from '../lib/sitemap';

// Prebuilt at build time like every page; the list follows src/pages.
const pageFiles = Object.keys(import.meta.glob('/src/pages/**/*.{astro,md,mdx}'));

export const GET: APIRoute = ({ site }) =>
  new Response(sitemapXml(sitemapRoutes(pageFiles), site ?? 'http://localhost:4321'), {
    headers: { 'content-type': 'application/xml; charset=utf-8' },
  });
