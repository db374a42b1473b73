/**
 * Pages without JavaScript
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md):
 * booking, the waitlist and the email's link page say plainly what to do
 * and give the practice's phone instead of "loading"; the link page
 * cancels with a plain form post answered in place; a request post answers
 * 303 to the received page, so a reload sends nothing again, and the same
 * request again is the first one; every error of a form answer links to
 * its field, radio groups are marked, and no label gets a second mark.
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { practice, telHref } from '../../src/lib/practice';
import { expectNoAxeViolations } from './helpers/axe';
import { showAsWithoutScripts } from './helpers/no-script';
import { bookWithLink, mailsTo } from './helpers/wizard';

const run = Date.now().toString(36);
const main = (page: Page) => page.getByRole('main');
/** Where each link leads (read by Playwright itself: the page runs no script). */
const hrefsOf = async (links: Locator) => Promise.all((await links.all()).map(async (a) => (await a.getAttribute('href'))!));

/** A referral as a patient fills it in on the form page. */
async function fillReferralAt(page: Page, email: string) {
  const m = main(page);
  await m.getByRole('radio', { name: 'Überweisung' }).check();
  await m.getByLabel(/^Fachrichtung/).fill('Orthopädie');
  await m.getByLabel(/^Grund/).fill('Knieschmerzen');
  await m.getByLabel(/^Vorname/).fill('Erika');
  await m.getByLabel(/^Nachname/).fill('Mustermann');
  await m.getByLabel(/^Geburtsdatum/).fill('12.08.1964');
  await m.getByLabel(/^E-Mail/).fill(email);
  await m.getByRole('checkbox', { name: /^Ich bin einverstanden/ }).check();
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const [path, says] of [
    ['/termin', 'Die Online-Buchung funktioniert nur, wenn JavaScript'],
    ['/en/termin', 'Online booking only works with JavaScript'],
    ['/termin/warteliste', 'Die Warteliste funktioniert nur, wenn JavaScript'],
    ['/en/termin/warteliste?token=' + 'x'.repeat(43), 'The waiting list only works with JavaScript'],
    ['/termin/absagen?token=' + 'x'.repeat(43), 'Ohne JavaScript kann diese Seite Ihren Termin nicht anzeigen'],
    ['/en/termin/absagen?token=' + 'x'.repeat(43), 'Without JavaScript this page cannot show or move your appointment'],
  ] as const) {
    test(`${path.replace(/\?.*/, '')} says what to do and gives the practice's phone; nothing says "loading"`, async ({ page }) => {
      await page.goto(path);
      // Rendered text (Playwright's text locators do not look inside <noscript>, which a browser without scripts shows).
      await expect(main(page)).toContainText(says, { useInnerText: true });
      await expect(main(page).getByRole('link', { name: practice.phone })).toHaveAttribute('href', telHref(practice.phone));
      // What shows (hidden parts are not in innerText): no loading state that never ends.
      expect(await main(page).innerText()).not.toMatch(/geladen|loading/i);
    });
  }

  test('the link page cancels with a plain form post, answered in place; the practice is told', async ({ page, request }) => {
    const { booking, linkPath } = await bookWithLink(request, 'Reisemedizinische Beratung', 'de');
    const token = new URL(linkPath, 'http://x').searchParams.get('token')!;
    await page.goto(linkPath);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Termin absagen');
    await main(page).getByRole('checkbox', { name: 'Ja, ich möchte diesen Termin absagen.' }).check();
    const posted = page.waitForResponse((r) => r.request().method() === 'POST');
    await main(page).getByRole('button', { name: 'Termin absagen' }).click();
    expect((await posted).status()).toBe(200);
    // The same address (the token in it), the same site page, saying it is done.
    await expect(page).toHaveURL((url) => url.pathname === '/termin/absagen' && url.searchParams.get('token') === token);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Termin abgesagt');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(main(page)).toContainText(booking.reference);
    await expect(main(page)).toContainText('Die Zeit ist wieder frei.');
    await expect(page).toHaveTitle(/^Termin abgesagt – /);
    expect((await request.get(`/api/bookings/cancel?token=${token}`)).status()).toBe(410);
    await expect.poll(async () => (await mailsTo('praxis@localhost')).some((m) => m.subject.startsWith('Termin abgesagt:') && m.text.includes(booking.reference))).toBe(true);

    // The link again: the form once more, and its post says it was already cancelled.
    await page.goto(linkPath);
    await main(page).getByRole('checkbox', { name: 'Ja, ich möchte diesen Termin absagen.' }).check();
    await main(page).getByRole('button', { name: 'Termin absagen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Termin bereits abgesagt');
  });

  test('the English link page cancels in English', async ({ page, request }) => {
    const { linkPath } = await bookWithLink(request, 'Reisemedizinische Beratung', 'en');
    await page.goto(linkPath);
    await main(page).getByRole('checkbox', { name: 'Yes, I want to cancel this appointment.' }).check();
    await main(page).getByRole('button', { name: 'Cancel appointment' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Appointment cancelled');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });

  test('a request post answers 303 to the received page: a reload sends nothing again, and the same request again is the first one', async ({ page }) => {
    const email = `prg-${run}@example.org`;
    const posts: number[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST') posts.push(r.status());
    });
    // The static page sends a browser without JavaScript to the form the server renders.
    await page.goto('/anfrage');
    await expect(page).toHaveURL(/\/anfrage\/formular$/);
    await fillReferralAt(page, email);
    await main(page).getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(page).toHaveURL(/\/anfrage\/formular\?sent=[2-9A-HJKMNP-Z]{6}&tag=[0-9a-f]{32}#request-result$/);
    expect(posts).toEqual([303]);
    const reference = new URL(page.url()).searchParams.get('sent')!;
    const received = main(page).getByRole('region', { name: 'Anfrage eingegangen' });
    await expect(received).toContainText(`Ihre Referenz: ${reference}.`);
    // Nothing the patient typed is in the address.
    for (const value of ['Erika', 'Mustermann', 'prg-', 'Orthop', 'Knie']) expect(decodeURIComponent(page.url())).not.toContain(value);

    await page.reload();
    await expect(received).toContainText(`Ihre Referenz: ${reference}.`);
    expect(posts).toEqual([303]);

    // Sent again (a second tab, Back and send): the same request, the same reference.
    await page.goto('/anfrage/formular');
    await fillReferralAt(page, email);
    await main(page).getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(received).toContainText(`Ihre Referenz: ${reference}.`);
    expect(posts).toEqual([303, 303]);
    // One receipt, whatever was posted twice (the outbox is written in the request's own transaction).
    await expect.poll(async () => (await mailsTo(email)).length).toBe(1);
    expect((await mailsTo(email))[0]!.subject).toContain(reference);
  });

  test('a request post with errors: every error links to its field, the radio groups are marked, no label gets a second mark', async ({ page }) => {
    await page.goto('/anfrage/formular');
    await main(page).getByRole('radio', { name: 'Folgerezept' }).check();
    await main(page).getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(page).toHaveURL(/\/api\/requests#request-result$/);
    const summary = main(page).getByRole('region', { name: 'Bitte prüfen Sie Ihre Angaben' });
    const items = summary.getByRole('listitem');
    await expect(items.first()).toBeVisible();
    const count = await items.count();
    expect(count).toBeGreaterThanOrEqual(5);
    await expect(summary.getByRole('link')).toHaveCount(count);
    for (const href of await hrefsOf(summary.getByRole('link'))) {
      expect(href).toMatch(/^#request-/);
      await expect(page.locator(href)).toHaveCount(1);
    }
    await expect(summary).toContainText('Wie möchten Sie das Rezept bekommen? Bitte wählen Sie, wie Sie das Rezept bekommen möchten.');
    expect(await summary.innerText()).not.toMatch(/[?:]:/);
    for (const name of ['Versicherung', 'Wie möchten Sie das Rezept bekommen?']) {
      const group = main(page).getByRole('group', { name });
      await expect(group).toHaveAttribute('aria-invalid', 'true');
      await expect(group).toHaveAttribute('aria-describedby', /request-result-/);
    }
    // Following an entry leads to its field.
    await summary.getByRole('link', { name: /^Versicherung/ }).click();
    await expect(page).toHaveURL(/#request-insurance-statutory$/);
  });

  test('the contact form’s errors link to their fields too', async ({ page }) => {
    await page.goto('/kontakt');
    await main(page).getByLabel(/^E-Mail/).fill('erika@');
    await main(page).getByRole('button', { name: 'Nachricht senden' }).click();
    const summary = main(page).getByRole('region', { name: 'Bitte prüfen Sie Ihre Angaben' });
    const links = summary.getByRole('link');
    await expect(links).toHaveCount(await summary.getByRole('listitem').count());
    for (const href of await hrefsOf(links)) await expect(page.locator(href)).toHaveCount(1);
  });
});

test.describe('the pages without JavaScript meet WCAG 2.2 AA', () => {
  // axe runs scripts of its own: the pages come with theirs dropped and their <noscript> parts shown (helpers/no-script.ts).
  test.beforeEach(async ({ page }) => showAsWithoutScripts(page));

  test('booking, the waitlist and the link page, in both languages', async ({ page }) => {
    for (const path of ['/termin', '/en/termin', '/termin/warteliste', '/en/termin/warteliste', '/termin/absagen', '/en/termin/absagen']) {
      await page.goto(`${path}?token=${'x'.repeat(43)}`);
      await expect(main(page).getByRole('link', { name: practice.phone })).toBeVisible();
      await expectNoAxeViolations(page, `${path} without JavaScript`);
    }
  });

  test('the link page’s answers: the box not ticked, and cancelled', async ({ page, request }) => {
    const { linkPath } = await bookWithLink(request, 'Reisemedizinische Beratung', 'de');
    await page.goto(linkPath);
    // The browser's own check would stop a form with the box unticked; this one goes to the server as is.
    await main(page).locator('form').evaluate((form: HTMLFormElement) => form.submit());
    await expect(main(page).getByRole('region', { name: 'Bitte bestätigen Sie die Absage' })).toBeVisible();
    await expectNoAxeViolations(page, 'the link page: box not ticked');
    await main(page).getByRole('checkbox', { name: 'Ja, ich möchte diesen Termin absagen.' }).check();
    await main(page).getByRole('button', { name: 'Termin absagen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Termin abgesagt');
    await expectNoAxeViolations(page, 'the link page: cancelled');
  });

  test('the request form as the server renders it, its errors and its received page', async ({ page }) => {
    await page.goto('/anfrage');
    await expect(page).toHaveURL(/\/anfrage\/formular$/);
    await expectNoAxeViolations(page, 'request form without JavaScript');
    await main(page).getByRole('radio', { name: 'Folgerezept' }).check();
    await main(page).getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(main(page).getByRole('region', { name: 'Bitte prüfen Sie Ihre Angaben' })).toBeVisible();
    await expectNoAxeViolations(page, 'request errors without JavaScript');
    await fillReferralAt(page, `axe-nojs-${run}@example.org`);
    await main(page).getByRole('button', { name: 'Anfrage senden' }).click();
    await expect(main(page).getByRole('region', { name: 'Anfrage eingegangen' })).toBeVisible();
    await expectNoAxeViolations(page, 'received page without JavaScript');
  });
});
