import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'parse5';
import { builtCancelPage } from '../../tests/helpers/cancel-page';
import { builtContactPage } from '../../tests/helpers/contact-page';
import { builtRequestPage } from '../../tests/helpers/request-page';
import { loadHtmlParser, parseWithLocations } from '../lib/html-parse';
import { compactTree, parsedBefore, rememberParsed, treeFromCompact } from '../lib/html-tree';
import { cancelAnswerHtml, type CancelResult } from './bookings/cancel-answer.server';
import type { BuiltPage, BuiltPageSet } from './built-pages/built-page';
import { contactResultHtml } from './contact-result.server';
import { fetchSitePage } from './page-answer.server';
import { requestPageHtml, type RequestPage } from './requests/form-answer.server';
import { DEFAULT_REQUEST_SETTINGS } from './requests/settings.server';

beforeAll(loadHtmlParser);
afterEach(() => vi.restoreAllMocks());

/** A page as scripts/bundle-functions.ts puts it in the bundle: the page and its tree, compact, through JSON. */
const bundled = (html: string, scripting: boolean): BuiltPage =>
  JSON.parse(JSON.stringify({ html, scripting, tree: compactTree(parse(html, { sourceCodeLocationInfo: true, scriptingEnabled: scripting })) }));
const carried = (html: string, scripting: boolean) => treeFromCompact(bundled(html, scripting).tree);

describe('the answers without JavaScript from a page parsed at the build', () => {
  it('are byte for byte the answers made by parsing the page', () => {
    const request = builtRequestPage('en');
    const requestInputs: RequestPage[] = [
      { lang: 'en', result: null, values: {}, settings: { ...DEFAULT_REQUEST_SETTINGS, referral: false, notice_en: 'Closed on Friday' } },
      { lang: 'en', result: { kind: 'invalid', errors: { kind: ['requests.errors.kindRequired'], first_name: ['requests.errors.firstNameRequired'] } }, values: { first_name: '<b>', reason: '\nwhy', consent: 'on', language: 'en' }, settings: null },
      { lang: 'en', result: { kind: 'sent', reference: 'ABC234' }, values: {}, settings: { ...DEFAULT_REQUEST_SETTINGS, prescription: false, referral: false, callback: false } },
    ];
    const cancel = builtCancelPage('de');
    const appointment = { type_name: 'Vorsorge', type_name_en: null, appointment_date: '2026-12-01', appointment_time: '09:00:00', reference: 'XYZ789' };
    const cancelResults: CancelResult[] = [{ kind: 'unconfirmed' }, { kind: 'cancelled', appointment }, { kind: 'failed' }];
    const contact = builtContactPage('de');
    const contactValues = { name: 'Erika', email: 'erika@', message: 'Hallo' };

    const answers = () => [
      ...requestInputs.map((input) => requestPageHtml(input, request)),
      ...cancelResults.map((result) => cancelAnswerHtml(result, 'de', cancel)),
      contactResultHtml({ kind: 'invalid', errors: { email: ['contact.errors.emailInvalid'] } }, 'de', contactValues, contact),
      contactResultHtml({ kind: 'sent' }, 'de', {}, contact),
    ];
    const byParsing = answers();
    rememberParsed(request, true, () => carried(request, true));
    rememberParsed(cancel, false, () => carried(cancel, false));
    rememberParsed(contact, true, () => carried(contact, true));
    expect(answers()).toEqual(byParsing);
    // Each answer is its page edited (the comparison is not of untouched pages).
    for (const answer of byParsing) expect([request, cancel, contact]).not.toContain(answer);
  });
});

describe('the built page an answer is made from', () => {
  const html = builtRequestPage('de').replace('<title>Anfrage</title>', '<title>Anfrage (gebündelt)</title>');
  const pages = (load: () => Promise<{ default: BuiltPage }>): BuiltPageSet => ({ paths: ['/anfrage', '/en/request'], scripting: true, bundled: { '/anfrage': load } });

  it('is the bundle’s copy when there is one: not fetched, and its tree is what the parser answers', async () => {
    const fetched = vi.spyOn(globalThis, 'fetch');
    expect(await fetchSitePage('https://www.praxis.example', '/anfrage', pages(async () => ({ default: bundled(html, true) })))).toBe(html);
    expect(fetched).not.toHaveBeenCalled();
    expect(parsedBefore(html, true)).toBeDefined();
    expect(parseWithLocations(html)).toBe(parsedBefore(html, true));
  });

  it('is fetched from the site for a path the bundle has no copy of, or when the copy does not load', async () => {
    const site = builtRequestPage('en');
    const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(site, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await fetchSitePage('https://www.praxis.example', '/en/request', pages(async () => ({ default: bundled(html, true) })))).toBe(site);
    expect(String(fetched.mock.calls[0]![0])).toBe('https://www.praxis.example/en/request');
    expect(await fetchSitePage('https://www.praxis.example', '/anfrage', pages(() => Promise.reject(new Error('gone'))))).toBe(site);
    expect(fetched).toHaveBeenCalledTimes(2);
    expect(warned).toHaveBeenCalledWith('bundled page /anfrage not loaded (Error); fetching it from the site');
    // Without a copy, null when the site does not answer: the plain page is the answer.
    fetched.mockImplementation(async () => new Response('down', { status: 503 }));
    expect(await fetchSitePage('https://www.praxis.example', '/anfrage')).toBeNull();
  });
});
