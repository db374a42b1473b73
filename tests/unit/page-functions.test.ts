/**
 * Functions that serve a page's path rather than /api
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md): the
 * request form rendered for a browser without JavaScript, and the link
 * page's cancel form post. The link page itself stays static: its function
 * runs for POST only (`config.method`, which Netlify reads from the source
 * and the local server honours), so a GET still gets the built page.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFunctions, routeServes } from '../../scripts/local-server';

describe('page functions', () => {
  it('the link page answers only its POST; the request form page only its GET; both in German and English', { timeout: 30_000 }, async () => {
    const routes = await loadFunctions(path.resolve('netlify/functions'));
    const serving = (method: string, pathname: string) => routes.find((r) => routeServes(r, method, pathname))?.name;
    for (const page of ['/termin/absagen', '/en/termin/absagen']) {
      expect(serving('POST', page)).toBe('booking-cancel-page.ts');
      expect(serving('GET', page)).toBeUndefined();
      expect(serving('HEAD', page)).toBeUndefined();
    }
    for (const page of ['/anfrage/formular', '/en/request/form', '/anfrage/formular/']) expect(serving('GET', page)).toBe('request-form.ts');
    // Every other page stays the built one.
    for (const page of ['/anfrage', '/en/request', '/termin', '/termin/warteliste']) expect(serving('GET', page)).toBeUndefined();
  });
});
