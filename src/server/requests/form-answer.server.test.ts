import { beforeAll, describe, expect, it } from 'vitest';
import { attributeOf, elementsOf, type HtmlElement } from '../../lib/html-edits';
import { loadHtmlParser, parseWithLocations } from '../../lib/html-parse';
import { requestAnswerHtml, requestPageHtml, sentPageLocation, sentReferenceOf, valuesToKeep } from './form-answer.server';
import { DEFAULT_REQUEST_SETTINGS } from './settings.server';
import { builtRequestPage } from '../../../tests/helpers/request-page';

const PAGE = builtRequestPage('de');

const elements = (html: string) => [...elementsOf(parseWithLocations(html))];
const find = (html: string, name: string, value?: string): HtmlElement | undefined =>
  elements(html).find((e) => attributeOf(e, 'name') === name && (value === undefined || attributeOf(e, 'value') === value));
const byAttribute = (html: string, attribute: string, value: string) => elements(html).find((e) => attributeOf(e, attribute) === value);
const summaryLinks = (html: string) =>
  elements(html)
    .filter((e) => e.tagName === 'a' && attributeOf(e, 'href')?.startsWith('#'))
    .map((a) => attributeOf(a, 'href')!.slice(1));

// The answers parse the pages they are given (only the bundled pages come parsed).
beforeAll(loadHtmlParser);

describe('the answer page of a form post without JavaScript', () => {
  const form = { kind: 'referral', first_name: 'Erika "<b>"', reason: '\nKnie', language: 'en', website: 'spam', page_language: 'de' };

  it('puts back what was typed and chosen, escaped, marks the fields in error and links them from the outcome', () => {
    const result = { kind: 'invalid' as const, errors: { reason: ['requests.errors.reasonRequired'], consent: ['requests.errors.consentRequired'], medications: ['requests.errors.medicationsRequired'] } };
    const html = requestAnswerHtml(result, 'de', valuesToKeep(result, form), PAGE);
    expect(attributeOf(find(html, 'kind', 'referral')!, 'checked')).toBe('');
    expect(attributeOf(find(html, 'kind', 'prescription')!, 'checked')).toBeUndefined();
    expect(attributeOf(find(html, 'consent')!, 'checked')).toBeUndefined();
    expect(attributeOf(find(html, 'first_name')!, 'value')).toBe('Erika "<b>"');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<textarea id="request-reason" name="reason" aria-invalid="true" aria-describedby="request-result-reason">\n\nKnie</textarea>');
    expect(attributeOf(elements(html).find((e) => e.tagName === 'option' && attributeOf(e, 'value') === 'en')!, 'selected')).toBe('');
    // A list's error points at its first field; the honeypot never comes back.
    expect(attributeOf(find(html, 'medications.0.name')!, 'aria-describedby')).toBe('request-result-medications');
    expect(attributeOf(find(html, 'website')!, 'value')).toBeUndefined();
    expect(html).toContain('<a class="underline" href="#request-reason">Grund, kurz: Bitte nennen Sie kurz den Grund.</a>');
    expect(html).toContain('<title>Bitte prüfen Sie Ihre Angaben – Hausarztpraxis Düsseldorf</title>');
  });

  it('keeps a field’s hint when it marks the field', () => {
    const result = { kind: 'invalid' as const, errors: { first_name: ['requests.errors.firstName'] } };
    const html = requestAnswerHtml(result, 'de', valuesToKeep(result, form), PAGE);
    expect(attributeOf(find(html, 'first_name')!, 'aria-describedby')).toBe('request-first_name-hint request-result-first_name');
  });

  it('links every error to its field: a radio group’s to its first radio, and marks the group (its fieldset), not each radio', () => {
    const errors = {
      kind: ['requests.errors.kindRequired'],
      delivery: ['requests.errors.deliveryRequired'],
      daypart: ['requests.errors.daypartRequired'],
      consent: ['requests.errors.consentRequired'],
      reason: ['requests.errors.reasonRequired'],
      first_name: ['requests.errors.firstName'],
      language: ['requests.errors.language'],
      medications: ['requests.errors.medicationsRequired'],
    };
    const html = requestAnswerHtml({ kind: 'invalid', errors }, 'de', {}, PAGE);
    const items = elements(html).filter((e) => e.tagName === 'li');
    expect(items).toHaveLength(Object.keys(errors).length);
    // Every entry is a link, and every link leads to a control of the page.
    expect(items.every((li) => li.childNodes.some((c) => 'tagName' in c && c.tagName === 'a'))).toBe(true);
    const links = summaryLinks(html);
    expect(links).toEqual(['request-kind-prescription', 'request-delivery-card', 'request-daypart-morning', 'request-consent', 'request-reason', 'request-first_name', 'request-language', 'request-medications-0-name']);
    for (const id of links) expect(byAttribute(html, 'id', id), id).toBeDefined();
    for (const group of ['kind', 'delivery', 'daypart']) {
      const fieldset = byAttribute(html, 'data-field', group)!;
      expect(fieldset.tagName).toBe('fieldset');
      expect(attributeOf(fieldset, 'aria-invalid'), group).toBe('true');
      expect(attributeOf(fieldset, 'aria-describedby'), group).toBe(`request-result-${group}`);
      for (const radio of elements(html).filter((e) => attributeOf(e, 'name') === group)) expect(attributeOf(radio, 'aria-invalid')).toBeUndefined();
    }
  });

  it.each([
    ['de', 'delivery', 'requests.errors.deliveryRequired', 'Wie möchten Sie das Rezept bekommen? Bitte wählen Sie, wie Sie das Rezept bekommen möchten.'],
    ['en', 'delivery', 'requests.errors.deliveryRequired', 'How would you like to receive the prescription? Please choose how you would like to receive the prescription.'],
    ['de', 'kind', 'requests.errors.kindRequired', 'Worum geht es? Bitte wählen Sie, worum es geht.'],
    ['de', 'topic', 'requests.errors.topicRequired', 'Worum geht es? (kurz): Bitte nennen Sie kurz, worum es geht.'],
  ] as const)('%s %s: a label ending in a question mark takes no second mark', (lang, field, key, text) => {
    const html = requestAnswerHtml({ kind: 'invalid', errors: { [field]: [key] } }, lang, {}, PAGE);
    expect(html).toContain(text);
    expect(html).not.toMatch(/[?:]: /);
  });

  it('sent: the reference and an empty form; English when the page was English', () => {
    const html = requestAnswerHtml({ kind: 'sent', reference: 'Q2W3E4' }, 'en', valuesToKeep({ kind: 'sent', reference: 'Q2W3E4' }, form), PAGE);
    expect(html).toContain('Your reference: Q2W3E4.');
    expect(attributeOf(find(html, 'first_name')!, 'value')).toBeUndefined();
    expect(html).toContain('href="/en/request/form"');
  });

  it('answers a plain page with the outcome when the site page is not the request page', () => {
    const html = requestAnswerHtml({ kind: 'closed', requestKind: 'callback' }, 'en', {}, '<html><body>elsewhere</body></html>');
    expect(html).toContain('We are not taking call-back requests online at the moment. Please call us.');
    expect(html).toContain('href="/en/request/form"');
  });
});

describe('the request form as the server renders it for a browser without JavaScript', () => {
  const page = (settings: typeof DEFAULT_REQUEST_SETTINGS | null, lang: 'de' | 'en' = 'de') => requestPageHtml({ lang, result: null, values: {}, settings }, PAGE);

  it('offers only the kinds the practice takes now: the others’ choice and section are gone', () => {
    const html = page({ ...DEFAULT_REQUEST_SETTINGS, prescription: false, callback: false });
    expect(find(html, 'kind', 'referral')).toBeDefined();
    expect(find(html, 'kind', 'prescription')).toBeUndefined();
    expect(find(html, 'kind', 'callback')).toBeUndefined();
    expect(byAttribute(html, 'data-section', 'prescription')).toBeUndefined();
    expect(byAttribute(html, 'data-section', 'callback')).toBeUndefined();
    expect(byAttribute(html, 'data-section', 'referral')).toBeDefined();
    // A kind error then leads to the first kind still offered.
    const invalid = requestPageHtml({ lang: 'de', result: { kind: 'invalid', errors: { kind: ['requests.errors.kindRequired'] } }, values: {}, settings: { ...DEFAULT_REQUEST_SETTINGS, prescription: false } }, PAGE);
    expect(summaryLinks(invalid)).toEqual(['request-kind-referral']);
  });

  it('shows the practice’s notice in the page’s language, escaped', () => {
    const settings = { ...DEFAULT_REQUEST_SETTINGS, notice_de: 'Bestellungen bis 11 Uhr <heute>', notice_en: 'Orders until 11 am' };
    const de = page(settings);
    const aside = byAttribute(de, 'data-request-notice', '')!;
    expect(attributeOf(aside, 'hidden')).toBeUndefined();
    expect(de).toContain('<p data-request-notice-text class="x">Bestellungen bis 11 Uhr &lt;heute&gt;</p>');
    expect(page(settings, 'en')).toContain('>Orders until 11 am</p>');
    // No notice: the aside stays hidden.
    expect(attributeOf(byAttribute(page(DEFAULT_REQUEST_SETTINGS), 'data-request-notice', '')!, 'hidden')).toBe('');
  });

  it('with every kind switched off: no form, the practice asks for a call', () => {
    const html = page({ ...DEFAULT_REQUEST_SETTINGS, prescription: false, referral: false, callback: false });
    expect(elements(html).find((e) => e.tagName === 'form')).toBeUndefined();
    expect(html).toContain('Online-Anfragen sind zurzeit nicht möglich. Bitte rufen Sie uns an.');
    expect(html).toContain('Telefon: ');
  });

  it('without the settings (the database did not answer): every kind, no notice, as the page’s script does', () => {
    const html = page(null);
    for (const kind of ['prescription', 'referral', 'callback']) expect(find(html, 'kind', kind)).toBeDefined();
  });

  it('drops the static page’s redirect here (a browser without JavaScript would go round in circles)', () => {
    expect(PAGE).toContain('http-equiv="refresh"');
    expect(page(DEFAULT_REQUEST_SETTINGS)).not.toContain('http-equiv="refresh"');
    expect(requestAnswerHtml({ kind: 'rate-limited' }, 'de', {}, PAGE)).not.toContain('http-equiv="refresh"');
  });

  it('without the site’s page: a plain page that says the form cannot be loaded, with the phone', () => {
    const html = requestPageHtml({ lang: 'de', result: null, values: {}, settings: DEFAULT_REQUEST_SETTINGS }, null);
    expect(html).toContain('Das Anfrageformular lässt sich gerade nicht laden.');
    expect(html).toContain('Telefon: ');
  });
});

describe('the received page’s address (the 303 after a form post)', () => {
  it('carries the reference and a tag only this server makes, nothing the patient entered', () => {
    const location = sentPageLocation('Q2W3E4', 'en');
    expect(location).toMatch(/^\/en\/request\/form\?sent=Q2W3E4&tag=[0-9a-f]{32}#request-result$/);
    const query = Object.fromEntries(new URL(location, 'https://praxis.example').searchParams);
    expect(sentReferenceOf(query)).toBe('Q2W3E4');
  });

  it('refuses a made-up or changed address', () => {
    const query = Object.fromEntries(new URL(sentPageLocation('Q2W3E4', 'de'), 'https://praxis.example').searchParams);
    expect(sentReferenceOf({ ...query, sent: 'Q2W3E5' })).toBeNull();
    expect(sentReferenceOf({ ...query, tag: '0'.repeat(32) })).toBeNull();
    expect(sentReferenceOf({ sent: 'Q2W3E4' })).toBeNull();
    expect(sentReferenceOf({ sent: '<script>', tag: query.tag! })).toBeNull();
  });
});
