import { describe, expect, it } from 'vitest';
import { routeOf, sitemapRoutes, sitemapXml } from './sitemap';

describe('sitemap', () => {
  it.each([
    ['./index.astro', null],
    ['./pages/index.astro', '/'],
    ['/src/pages/laboruntersuchungen.astro', '/laboruntersuchungen'],
    ['./pages/en/index.astro', '/'],
    ['./pages/team.astro', '/team'],
    ['./pages/en/kontakt.astro', '/kontakt'],
    ['./pages/termin/index.astro', '/termin'],
    ['./pages/termin/absagen.astro', null],
    ['./pages/404.astro', null],
    ['./pages/auth.astro', null],
    ['./pages/admin/inventory.astro', null],
    ['./pages/admin-setup.astro', null],
    ['./pages/blog/[slug].astro', null],
    ['./pages/_partial.astro', null],
    ['./pages/anfrage.astro', '/anfrage'],
    ['./pages/en/request.astro', '/anfrage'],
    ['./pages/anfrage/status.astro', null],
    ['./pages/en/request/status.astro', null],
  ])('%s → %s', (file, route) => {
    expect(routeOf(file)).toBe(route);
  });

  it('lists each route once with both languages and their alternates', () => {
    const routes = sitemapRoutes(['./pages/index.astro', './pages/en/index.astro', './pages/team.astro', './pages/en/team.astro']);
    expect(routes).toEqual(['/', '/team']);
    const xml = sitemapXml(routes, 'https://praxis.example');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual(['https://praxis.example/', 'https://praxis.example/en/', 'https://praxis.example/team', 'https://praxis.example/en/team']);
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="en" href="https://praxis.example/en/team"/>');
  });

  it('names the request page in English by its own name', () => {
    const xml = sitemapXml(sitemapRoutes(['./pages/anfrage.astro', './pages/en/request.astro']), 'https://praxis.example');
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(['https://praxis.example/anfrage', 'https://praxis.example/en/request']);
  });
});
