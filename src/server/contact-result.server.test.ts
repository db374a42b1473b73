/**
 * The no-JavaScript answer of the contact form: the
 * site's contact page with the outcome above the form and what was typed
 * still in it; a plain page with the same when the site's page is missing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHtmlParser } from '../lib/html-parse';
import { parse } from 'parse5';
import { builtContactPage } from '../../tests/helpers/contact-page';
import { contactResultHtml, valuesToKeep } from './contact-result.server';

const SITE_PAGE = builtContactPage('de');

const typed = { name: 'Erika "<b>" Mustermann', email: 'erika@', phone: '', subject: 'Frage', message: '\nZeile eins\n<script>alert(1)</script>', website: 'spam', language: 'de' };
const invalid = { kind: 'invalid' as const, errors: { email: ['contact.errors.emailInvalid'], message: ['contact.errors.messageRequired'] } };

/** The form's fields as a browser would read them. */
function fieldsOf(html: string): Record<string, { value: string; invalid?: string; describedBy?: string }> {
  const fields: Record<string, { value: string; invalid?: string; describedBy?: string }> = {};
  const walk = (node: any) => {
    if (node.tagName === 'input' || node.tagName === 'textarea') {
      const attr = (n: string) => node.attrs.find((a: { name: string }) => a.name === n)?.value;
      const value = node.tagName === 'textarea' ? (node.childNodes[0]?.value ?? '') : (attr('value') ?? '');
      fields[attr('name')] = { value, invalid: attr('aria-invalid'), describedBy: attr('aria-describedby') };
    }
    for (const child of node.childNodes ?? []) walk(child);
  };
  walk(parse(html));
  return fields;
}

// The answers parse the pages they are given (only the bundled pages come parsed).
beforeAll(loadHtmlParser);

describe('the contact form’s answer without JavaScript', () => {
  it('is the site’s contact page: header, footer and scripts as built, the outcome at the marker, the title saying it', () => {
    const html = contactResultHtml({ kind: 'sent' }, 'de', {}, SITE_PAGE);
    expect(html).toContain('<header id="site-nav">Praxis</header>');
    expect(html).toContain('<footer>Impressum</footer>');
    expect(html).toContain('<script>console.log("kept")</script>');
    expect(html).toContain('<title>Nachricht gesendet – Hausarztpraxis Düsseldorf</title>');
    expect(html).toMatch(/<section id="contact-result"[^>]*>.*Nachricht gesendet.*Vielen Dank für Ihre Nachricht/);
    expect(html).not.toContain('<div id="contact-result"></div>');
  });

  it('bad input: every typed value is back in its field (escaped), the errors link to their fields, which are marked', () => {
    const html = contactResultHtml(invalid, 'de', valuesToKeep(invalid, typed), SITE_PAGE);
    const fields = fieldsOf(html);
    expect(fields.name!.value).toBe('Erika "<b>" Mustermann');
    expect(fields.email).toEqual({ value: 'erika@', invalid: 'true', describedBy: 'contact-result-email' });
    expect(fields.subject!.value).toBe('Frage');
    expect(fields.message).toEqual({ value: '\nZeile eins\n<script>alert(1)</script>', invalid: 'true', describedBy: 'contact-result-message' });
    // The honeypot stays empty, the language stays.
    expect(fields.website!.value).toBe('');
    expect(fields.language!.value).toBe('de');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('<li id="contact-result-email"><a class="underline" href="#%C2%ABR1%C2%BB-email">E-Mail: ');
    expect(html).toContain('Ihre Eingaben stehen noch im Formular');
    expect(html).toContain('<title>Bitte prüfen Sie Ihre Angaben – Hausarztpraxis Düsseldorf</title>');
  });

  it('sent or refused (a post from another site): nothing typed comes back', () => {
    expect(valuesToKeep({ kind: 'sent' }, typed)).toEqual({});
    expect(valuesToKeep({ kind: 'refused' }, typed)).toEqual({});
    expect(valuesToKeep({ kind: 'failed' }, typed)).toEqual({ name: typed.name, email: 'erika@', phone: '', subject: 'Frage', message: typed.message });
  });

  it('without the site’s page (or one lacking the marker): a plain page with the outcome and the same filled-in form', () => {
    for (const page of [null, SITE_PAGE.replace('<div id="contact-result"></div>', '')]) {
      const html = contactResultHtml(invalid, 'en', valuesToKeep(invalid, typed), page);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<h1 id="contact-result-title" class="text-2xl font-bold">Please check your entries</h1>');
      const fields = fieldsOf(html);
      expect(fields.name!.value).toBe('Erika "<b>" Mustermann');
      expect(fields.message!.value).toBe(typed.message);
      expect(fields.email!.invalid).toBe('true');
      expect(html).toContain('action="/api/contact#contact-result"');
    }
  });
});
