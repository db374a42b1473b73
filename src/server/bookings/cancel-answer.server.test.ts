/**
 * The link page's answer to its cancel form without JavaScript
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md):
 * the built page with the outcome in place of its <noscript> part, or above
 * the same form where it may be tried again.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCancelPage } from '../../../tests/helpers/cancel-page';
import { attributeOf, elementsOf } from '../../lib/html-edits';
import { loadHtmlParser, parseWithLocations } from '../../lib/html-parse';
import { cancelAnswerHtml } from './cancel-answer.server';

const appointment = { type_name: 'Vorsorge', type_name_en: null, appointment_date: '2030-01-08', appointment_time: '09:00', reference: 'K7M2QX' };
/** The page as a browser without JavaScript reads it. */
const elements = (html: string) => [...elementsOf(parseWithLocations(html, { scripting: false }))];

// The answers parse the pages they are given (only the bundled pages come parsed).
beforeAll(loadHtmlParser);

describe('the link page’s answer without JavaScript', () => {
  it('cancelled: the site’s page says so in place of its <noscript> part, with the appointment and the way to book again; the form is gone', () => {
    const html = cancelAnswerHtml({ kind: 'cancelled', appointment }, 'de', builtCancelPage('de'));
    expect(html).toContain('<header id="site-nav">Praxis</header>');
    expect(html).toContain('<script>console.log("kept")</script>');
    expect(html).toContain('<title>Termin abgesagt – Hausarztpraxis Düsseldorf</title>');
    expect(html).not.toContain('id="cancel-no-script"');
    expect(elements(html).find((e) => e.tagName === 'form')).toBeUndefined();
    const h1 = elements(html).filter((e) => e.tagName === 'h1');
    // The island's heading stays hidden (its style is the page's own); the answer's is the one a reader meets.
    expect(html).toContain('<noscript><style>[data-cancel-island]{display:none}</style></noscript>');
    expect(h1.map((e) => attributeOf(e, 'id'))).toEqual([undefined, 'cancel-result-title']);
    expect(html).toMatch(/<h1 id="cancel-result-title"[^>]*>Termin abgesagt<\/h1>/);
    for (const text of ['K7M2QX', 'Vorsorge', 'Dienstag, 8. Januar 2030', '09:00 Uhr', 'Die Zeit ist wieder frei.', 'href="/termin"']) expect(html).toContain(text);
  });

  it.each([
    ['cancelled-by-patient', 'Termin bereits abgesagt', 'Sie haben diesen Termin bereits abgesagt.', false],
    ['cancelled-by-practice', 'Termin von der Praxis abgesagt', 'Die Praxis hat diesen Termin abgesagt.', true],
  ] as const)('%s: what it was, and that it is off', (kind, title, text, phone) => {
    const html = cancelAnswerHtml({ kind, appointment }, 'de', builtCancelPage('de'));
    expect(html).toContain(`>${title}</h1>`);
    expect(html).toContain(text);
    expect(html).toContain('K7M2QX');
    expect(html.includes('Rufen Sie uns gern an:')).toBe(phone);
  });

  it.each([
    ['too-late', 'Online nicht mehr möglich', 'bereits begonnen'],
    ['unknown', 'Link nicht mehr gültig', 'ungültig oder wurde bereits verwendet'],
    ['incomplete', 'Link unvollständig', 'nicht vollständig angekommen'],
  ] as const)('%s: why not, and the phone', (kind, title, text) => {
    const html = cancelAnswerHtml({ kind }, 'de', builtCancelPage('de'));
    expect(html).toContain(`>${title}</h1>`);
    expect(html).toContain(text);
    expect(html).toMatch(/Rufen Sie uns gern an: <a [^>]*href="tel:\+49/);
    expect(elements(html).find((e) => e.tagName === 'form')).toBeUndefined();
  });

  it('the box not ticked: the same form again, the error listed, linked to the box, the box marked', () => {
    const html = cancelAnswerHtml({ kind: 'unconfirmed' }, 'de', builtCancelPage('de'));
    // No longer inside <noscript> (the answer is for a browser without scripts; the island stays hidden by the page's style).
    expect(html).not.toContain('<noscript id="cancel-no-script"');
    expect([...elementsOf(parseWithLocations(html))].some((e) => attributeOf(e, 'id') === 'cancel-confirm')).toBe(true);
    expect(html).toContain('<title>Bitte bestätigen Sie die Absage – Hausarztpraxis Düsseldorf</title>');
    expect(html).toContain('<li id="cancel-result-confirm"><a class="underline" href="#cancel-confirm">Bestätigung: Bitte kreuzen Sie an, dass Sie den Termin absagen möchten.</a></li>');
    const box = elements(html).find((e) => attributeOf(e, 'id') === 'cancel-confirm')!;
    expect(attributeOf(box, 'aria-invalid')).toBe('true');
    expect(attributeOf(box, 'aria-describedby')).toBe('cancel-result-confirm');
    expect(elements(html).filter((e) => e.tagName === 'form')).toHaveLength(1);
    expect(html).not.toMatch(/[?:.]: /);
  });

  it('refused (a post from elsewhere) or failed: the form again with what happened, in English on the English page', () => {
    const html = cancelAnswerHtml({ kind: 'refused' }, 'en', builtCancelPage('en'));
    expect(html).toContain('The cancellation did not come from our website and was not accepted.');
    expect(elements(html).filter((e) => e.tagName === 'form')).toHaveLength(1);
    expect(cancelAnswerHtml({ kind: 'failed' }, 'en', builtCancelPage('en'))).toContain('could not be cancelled just now');
  });

  it('an English type name stands in English; a German one on the English page is marked German', () => {
    const english = cancelAnswerHtml({ kind: 'cancelled', appointment: { ...appointment, type_name_en: 'Check-up' } }, 'en', builtCancelPage('en'));
    expect(english).toContain('>Check-up</dd>');
    expect(english).toContain('Tuesday, 8 January 2030');
    expect(cancelAnswerHtml({ kind: 'cancelled', appointment }, 'en', builtCancelPage('en'))).toContain('lang="de">Vorsorge</dd>');
  });

  it('without the site’s page: a plain page with the same outcome (and the form where it may be tried again)', () => {
    const done = cancelAnswerHtml({ kind: 'cancelled', appointment }, 'de', null);
    expect(done).toContain('<html lang="de">');
    expect(done).toContain('Termin abgesagt');
    expect(done).not.toContain('<form');
    const again = cancelAnswerHtml({ kind: 'unconfirmed' }, 'de', '<html><body>elsewhere</body></html>');
    expect(again).toContain('<form method="post">');
    expect(again).toContain('href="#cancel-confirm"');
  });
});
