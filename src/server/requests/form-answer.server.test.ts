import { describe, expect, it } from 'vitest';
import { attributeOf, elementsOf, parseWithLocations, type HtmlElement } from '../../lib/html-edits';
import { requestAnswerHtml, valuesToKeep } from './form-answer.server';

/** A built request page in small: the marker, the form with a radio group, a box, a select, a text field with a hint and a textarea. */
const PAGE = `<!doctype html><html lang="de"><head><title>Anfrage</title></head><body><main>
<div id="request-result"></div>
<form action="/api/requests#request-result" method="post">
<input type="radio" name="kind" value="prescription" id="k1"><input type="radio" name="kind" value="referral" id="k2">
<input type="checkbox" name="consent" id="request-consent">
<select name="language" id="request-language"><option value="de" selected>Deutsch</option><option value="en">English</option></select>
<input id="request-first_name" name="first_name" aria-describedby="request-first_name-hint">
<input id="request-medications-0-name" name="medications.0.name">
<textarea id="request-reason" name="reason"></textarea>
<input name="website">
</form></main></body></html>`;

const find = (html: string, name: string, value?: string): HtmlElement =>
  [...elementsOf(parseWithLocations(html))].find((e) => attributeOf(e, 'name') === name && (value === undefined || attributeOf(e, 'value') === value))!;

describe('the answer page of a form post without JavaScript', () => {
  const form = { kind: 'referral', first_name: 'Erika "<b>"', reason: '\nKnie', language: 'en', website: 'spam', page_language: 'de' };

  it('puts back what was typed and chosen, escaped, marks the fields in error and links them from the outcome', () => {
    const result = { kind: 'invalid' as const, errors: { reason: ['requests.errors.reasonRequired'], consent: ['requests.errors.consentRequired'], medications: ['requests.errors.medicationsRequired'] } };
    const html = requestAnswerHtml(result, 'de', valuesToKeep(result, form), PAGE);
    expect(attributeOf(find(html, 'kind', 'referral'), 'checked')).toBe('');
    expect(attributeOf(find(html, 'kind', 'prescription'), 'checked')).toBeUndefined();
    expect(attributeOf(find(html, 'consent'), 'checked')).toBeUndefined();
    expect(attributeOf(find(html, 'first_name'), 'value')).toBe('Erika "<b>"');
    expect(html).not.toContain('<b>');
    expect(html).toContain('<textarea id="request-reason" name="reason" aria-invalid="true" aria-describedby="request-result-reason">\n\nKnie</textarea>');
    expect(attributeOf([...elementsOf(parseWithLocations(html))].find((e) => e.tagName === 'option' && attributeOf(e, 'value') === 'en')!, 'selected')).toBe('');
    // A list's error points at its first field; the honeypot never comes back.
    expect(attributeOf(find(html, 'medications.0.name'), 'aria-describedby')).toBe('request-result-medications');
    expect(attributeOf(find(html, 'website'), 'value')).toBeUndefined();
    expect(html).toContain('<a class="underline" href="#request-reason">Grund, kurz: Bitte nennen Sie kurz den Grund.</a>');
    expect(html).toContain('<title>Bitte prüfen Sie Ihre Angaben – Hausarztpraxis Düsseldorf</title>');
  });

  it('keeps a field’s hint when it marks the field', () => {
    const result = { kind: 'invalid' as const, errors: { first_name: ['requests.errors.firstName'] } };
    const html = requestAnswerHtml(result, 'de', valuesToKeep(result, form), PAGE);
    expect(attributeOf(find(html, 'first_name'), 'aria-describedby')).toBe('request-first_name-hint request-result-first_name');
  });

  it('sent: the reference and an empty form; English when the page was English', () => {
    const html = requestAnswerHtml({ kind: 'sent', reference: 'Q2W3E4' }, 'en', valuesToKeep({ kind: 'sent', reference: 'Q2W3E4' }, form), PAGE);
    expect(html).toContain('Your reference: Q2W3E4.');
    expect(attributeOf(find(html, 'first_name'), 'value')).toBeUndefined();
  });

  it('answers a plain page with the outcome when the site page is not the request page', () => {
    const html = requestAnswerHtml({ kind: 'closed', requestKind: 'callback' }, 'en', {}, '<html><body>elsewhere</body></html>');
    expect(html).toContain('We are not taking call-back requests online at the moment. Please call us.');
    expect(html).toContain('href="/en/request"');
  });
});
