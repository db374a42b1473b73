/**
 * docs/decisions/017, as patients meet it, in both
 * languages: every wizard step, the cancel page, the move view and the done
 * states at 320 px; the time list that says it scrolls; the cancel page's
 * heading and its definition list; what the success screen and the emails
 * tell; Back after booking; the language hint below the header; hyphens in
 * long German words; the install banner that covers nothing. axe (WCAG 2.2
 * AA) on every new state. The contact form without JavaScript is in
 * contact-no-js.spec.ts.
 */
import { devices, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { parse } from 'date-fns';
import { de as deLocale } from 'date-fns/locale/de';
import { enGB } from 'date-fns/locale/en-GB';
import { practice, telHref } from '../../src/lib/practice';
import { axe, settled } from './helpers/axe';
import { bookWithLink, chooseSlot, de, en, fillDetails, mailsTo, onDateWithTimes, practiceNotificationOf, referenceIn, uniqueEmail } from './helpers/wizard';
import { bothLanguages } from './support/public-pages';


const texts = {
  de: {
    wizard: de,
    step1: 'Welche Terminart möchten Sie buchen?',
    booked: 'Ihr Termin ist gebucht!',
    sentTo: 'Bestätigung an',
    reminderYes: 'per E-Mail, 24 Stunden vorher',
    reminderBox: 'Erinnerung per E-Mail 24 Stunden vorher',
    headings: { ready: 'Termin absagen oder verschieben', move: 'Termin verschieben', moved: 'Termin verschoben', cancelled: 'Termin abgesagt', incomplete: 'Link unvollständig' },
    buttons: { move: 'Termin verschieben', confirmMove: 'Auf diese Zeit verschieben', cancel: 'Termin absagen', reallyCancel: 'Ja, Termin absagen' },
    time: (t: string) => `${t} Uhr`,
    moreTimes: 'Weitere Zeiten weiter unten – bitte scrollen',
  },
  en: {
    wizard: en,
    step1: 'Which type of appointment would you like?',
    booked: 'Your appointment is booked!',
    sentTo: 'Confirmation sent to',
    reminderYes: 'by email, 24 hours before',
    reminderBox: 'Email reminder 24 hours before',
    headings: { ready: 'Cancel or reschedule your appointment', move: 'Reschedule your appointment', moved: 'Appointment rescheduled', cancelled: 'Appointment cancelled', incomplete: 'Incomplete link' },
    buttons: { move: 'Reschedule', confirmMove: 'Move to this time', cancel: 'Cancel appointment', reallyCancel: 'Yes, cancel it' },
    time: (t: string) => t,
    moreTimes: 'More times below – please scroll',
  },
} as const;

/** The page's horizontal overflow once settled, or null when it fits. */
async function overflow(page: Page): Promise<string | null> {
  await settled(page);
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  return scroll > client ? `${scroll} > ${client}` : null;
}

/** The boxes of the page's definition list: each label and its value, in order (none where there is no list). */
async function detailBoxes(page: Page) {
  return page.locator('main dl dt').evaluateAll((labels) =>
    labels.map((dt) => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      return { label: dt.textContent!, dt: box(dt), dd: box(dt.nextElementSibling!) };
    }),
  );
}
const overlaps = (a: { left: number; right: number; top: number; bottom: number }, b: typeof a) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/** A date read back from an email, in the email's own format and language. */
function readDate(text: string, format: string, lang: 'de' | 'en'): string {
  const date = parse(text, format, new Date(2000, 0, 1, 12), { locale: lang === 'de' ? deLocale : enGB });
  expect(Number.isNaN(date.getTime()), `"${text}" as ${format}`).toBe(false);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

const emailDates = {
  de: { subject: /^Terminbestätigung: Check-up am (\d\d\.\d\d\.\d{4}) um (\d\d:\d\d)$/, subjectFormat: 'dd.MM.yyyy', body: /^Datum: (.+)$/m, bodyFormat: 'EEEE, d. MMMM yyyy' },
  en: {
    subject: /^Appointment confirmation: (?:Health check|Check-up) on (\w{3} \d{1,2} \w{3} \d{4}) at (\d\d:\d\d)$/,
    subjectFormat: 'EEE d MMM yyyy',
    body: /^Date: (.+)$/m,
    bodyFormat: 'EEEE, d MMMM yyyy',
  },
} as const;

for (const lang of ['de', 'en'] as const) {
  const x = texts[lang];

  test.describe(`patient details (${lang})`, () => {
    test('the success screen tells where the confirmation went and the reminder; Back starts anew; the emails write the language’s dates', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 800 });
      const { time } = await chooseSlot(page, x.wizard, 'Health check|Check-up');
      const booked = new URL(page.url()).searchParams.get(lang === 'de' ? 'datum' : 'date')!;
      const email = uniqueEmail(`success-${lang}`);
      await fillDetails(page, x.wizard, email);
      await page.getByRole('checkbox', { name: x.reminderBox }).check();
      await page.getByRole('button', { name: x.wizard.submit }).click();
      await expect(page.getByRole('heading', { name: x.booked })).toBeVisible();

      // Where the confirmation went, to notice a typo, and what to do then: call.
      const address = page.getByTestId('confirmation-address');
      await expect(address).toHaveText(email);
      expect(await address.evaluate((dd) => dd.previousElementSibling?.textContent)).toBe(x.sentTo);
      await expect(page.getByTestId('reminder')).toHaveText(x.reminderYes);
      const success = page.getByRole('region', { name: x.booked });
      await expect(success.getByRole('link', { name: practice.phone })).toHaveAttribute('href', telHref(practice.phone));
      await axe(page, `${lang} success screen`);

      // Back: a new booking at step 1, never the booked time with "Next" ready; forward again neither.
      for (const move of ['back', 'back', 'forward', 'forward'] as const) {
        await (move === 'back' ? page.goBack() : page.goForward());
        await expect(page.getByRole('heading', { name: x.step1 })).toBeVisible();
        await expect(page.getByRole('button', { name: x.wizard.next, exact: true })).toBeDisabled();
        await expect(page.getByRole('button', { name: x.wizard.submit })).toHaveCount(0);
        expect(new URL(page.url()).search, move).toBe('');
      }

      // The emails: dates in the booking's language, read back as dates.
      await expect.poll(async () => (await mailsTo(email)).length).toBe(1);
      const mails = await mailsTo(email);
      const confirmation = mails.find((m) => m.headers.to === email)!;
      const d = emailDates[lang];
      const [, subjectDate, subjectTime] = d.subject.exec(confirmation.subject) ?? [];
      expect(subjectDate, confirmation.subject).toBeTruthy();
      expect(readDate(subjectDate!, d.subjectFormat, lang)).toBe(booked);
      expect(subjectTime).toBe(time);
      expect(readDate(d.body.exec(confirmation.text)![1]!, d.bodyFormat, lang)).toBe(booked);
      // The practice's notification is German whatever the patient's language.
      const notification = (await practiceNotificationOf(referenceIn(confirmation.text)))!;
      expect(readDate(/ am (\d\d\.\d\d\.\d{4}) um /.exec(notification.subject)![1]!, 'dd.MM.yyyy', 'de')).toBe(booked);
      expect(readDate(/^Datum: (.+)$/m.exec(notification.text)![1]!, 'EEEE, d. MMMM yyyy', 'de')).toBe(booked);
    });

    test.describe('320 px wide', () => {
      test.use({ viewport: { width: 320, height: 700 } });

      test('every wizard step fits: a step in the URL, after choosing a date, the details, the success screen', async ({ page }) => {
        const failures: string[] = [];
        const fits = async (label: string) => {
          const problem = await overflow(page);
          if (problem) failures.push(`${label}: ${problem}`);
        };
        await page.goto(x.wizard.path);
        await page.getByRole('button', { name: x.wizard.choose('Health check|Check-up') }).waitFor();
        const languageButton = (await page.locator('header [data-lang-switch]').boundingBox())!;
        expect(languageButton.height, 'the language button on one line').toBeLessThan(40);
        await fits('step 1');
        await page.getByRole('button', { name: x.wizard.choose('Health check|Check-up') }).click();
        await page.waitForURL(/[?&](datum|date)=/);
        await page.getByRole('group', { name: x.wizard.times }).getByRole('button').first().waitFor();
        await fits('step 2');
        // The step's own URL, opened afresh.
        await page.reload();
        await page.getByRole('group', { name: x.wizard.times }).getByRole('button').first().waitFor();
        await fits('step 2 from its URL');
        await onDateWithTimes(page, 2);
        await fits('step 2 after choosing a date');
        const times = page.getByRole('group', { name: x.wizard.times }).getByRole('button');
        await times.nth(1).click();
        await page.getByRole('button', { name: x.wizard.next, exact: true }).click();
        await page.getByRole('checkbox').first().waitFor();
        await fits('step 3');
        await fillDetails(page, x.wizard, uniqueEmail(`narrow-${lang}`));
        await page.getByRole('button', { name: x.wizard.submit }).click();
        await expect(page.getByRole('heading', { name: x.booked })).toBeVisible();
        await fits('success');
        expect(failures).toEqual([]);
      });

      test('a long list of times says that more follow, until scrolled to its end', async ({ page }) => {
        await page.goto(x.wizard.path);
        await page.getByRole('button', { name: x.wizard.choose('Impfung|Vaccination') }).click();
        // 10-minute slots: a day with more than fifteen times overflows the list's height.
        await onDateWithTimes(page, 16);
        const hint = page.getByTestId('more-times');
        await expect(hint).toHaveText(x.moreTimes);
        await axe(page, `${lang} times with more below`);
        const list = page.getByRole('group', { name: x.wizard.times });
        await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await expect(hint).toHaveCount(0);
        await list.evaluate((el) => el.scrollTo(0, 0));
        await expect(hint).toBeVisible();
      });

      test('the cancel page, the move view and the done states fit; labels never overlap values; the heading follows', async ({ page, request }) => {
        const failures: string[] = [];
        const check = async (label: string, heading: string) => {
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
          await expect(page).toHaveTitle(new RegExp(`^${heading} – `));
          const problem = await overflow(page);
          if (problem) failures.push(`${label}: ${problem}`);
          for (const row of await detailBoxes(page)) if (overlaps(row.dt, row.dd)) failures.push(`${label}: "${row.label}" overlaps its value`);
          await axe(page, `${lang} ${label}`);
        };
        const first = await bookWithLink(request, 'Reisemedizinische Beratung', lang);
        await page.goto(first.linkPath);
        await expect(page.getByTestId('booking-reference')).toHaveText(first.booking.reference);
        await check('cancel page', x.headings.ready);
        await page.getByRole('button', { name: x.buttons.move }).click();
        const newTime = first.day.times[2]!;
        const slot = page.getByRole('group', { name: x.wizard.times }).getByRole('button', { name: x.time(newTime), exact: true });
        await slot.waitFor();
        await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
        await slot.click();
        await check('move view', x.headings.move);
        await page.getByRole('button', { name: x.buttons.confirmMove }).click();
        await expect(page.getByRole('heading', { level: 1, name: x.headings.moved })).toBeVisible();
        await check('moved', x.headings.moved);

        const second = await bookWithLink(request, 'Reisemedizinische Beratung', lang);
        await page.goto(second.linkPath);
        await page.getByRole('button', { name: x.buttons.cancel }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: x.buttons.reallyCancel }).click();
        await expect(page.getByRole('heading', { level: 1, name: x.headings.cancelled })).toBeVisible();
        await check('cancelled', x.headings.cancelled);

        // A link cut short: say so and offer the practice's number.
        await page.goto(second.linkPath.slice(0, -10));
        await check('link incomplete', x.headings.incomplete);
        await expect(page.getByRole('main').getByRole('link', { name: practice.phone })).toHaveAttribute('href', telHref(practice.phone));
        expect(failures).toEqual([]);
      });
    });

    test('on a desktop the cancel page’s values line up beside their labels', async ({ page, request }) => {
      await page.setViewportSize({ width: 1024, height: 800 });
      const { linkPath } = await bookWithLink(request, 'Reisemedizinische Beratung', lang);
      await page.goto(linkPath);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(x.headings.ready);
      const rows = await detailBoxes(page);
      expect(rows.length).toBeGreaterThanOrEqual(4);
      for (const row of rows) {
        expect(overlaps(row.dt, row.dd), row.label).toBe(false);
        // Beside its label, on the same line.
        expect(Math.abs(row.dd.top - row.dt.top), row.label).toBeLessThan(4);
        expect(row.dd.left, row.label).toBe(rows[0]!.dd.left);
      }
    });
  });
}

test.describe('the language suggestion below the fixed header', () => {
  for (const [path, locale, name, dismiss] of [
    ['/termin', 'en-US', 'This page is also available in English.', 'Dismiss this hint'],
    ['/en/termin', 'de-DE', 'Diese Seite gibt es auch auf Deutsch.', 'Hinweis schließen'],
  ] as const) {
    test(`shows whole, in one or two lines, at 320 to 390 px (${path})`, async ({ browser }) => {
      const context = await browser.newContext({ locale, serviceWorkers: 'block' });
      const page = await context.newPage();
      for (const width of [320, 360, 390]) {
        await page.setViewportSize({ width, height: 700 });
        await page.goto(path);
        const suggestion = page.getByRole('complementary', { name });
        await expect(suggestion).toBeVisible();
        const header = (await page.locator('#site-nav').boundingBox())!;
        const box = (await suggestion.boundingBox())!;
        expect(box.y, `${width} px: below the header`).toBeGreaterThanOrEqual(header.y + header.height - 0.5);
        const text = suggestion.getByRole('paragraph');
        const lines = await text.evaluate((p) => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)));
        expect(lines, `${width} px: lines of text`).toBeLessThanOrEqual(2);
        // The close button beside the text, not on a line of its own.
        const close = (await suggestion.getByRole('button', { name: dismiss }).boundingBox())!;
        const textBox = (await text.boundingBox())!;
        expect(close.y, `${width} px: the close button beside the text`).toBeLessThan(textBox.y + textBox.height);
        expect(close.x, `${width} px`).toBeGreaterThanOrEqual(textBox.x + textBox.width - 0.5);
        if (width === 320) await axe(page, `${path} with the suggestion`);
      }
      await context.close();
    });
  }
});

test.describe('hyphenation at 320 px', () => {
  test.use({ viewport: { width: 320, height: 700 } });

  test('no heading of a public page breaks a word without a hyphen, in either language', async ({ page }) => {
    const cut: string[] = [];
    let softBreaks = 0;
    for (const { path } of bothLanguages) {
      await page.goto(path);
      const found = await page.locator('main h1, main h2, main h3, main h4').evaluateAll((headings) => {
        const problems: string[] = [];
        let soft = 0;
        for (const heading of headings) {
          // Each character with the top of its line (none for those not drawn, such as an unused soft hyphen).
          const chars: Array<{ c: string; top: number | null }> = [];
          const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? '';
            for (let i = 0; i < text.length; i++) {
              const range = document.createRange();
              range.setStart(node, i);
              range.setEnd(node, i + 1);
              // The last drawn box: Chromium adds a line's break hyphen to the boxes of the character after it.
              const rect = [...range.getClientRects()].filter((r) => r.width > 0).at(-1);
              chars.push({ c: text[i]!, top: rect ? Math.round(rect.top) : null });
            }
          }
          let previous = -1;
          chars.forEach((ch, i) => {
            if (ch.top === null || /\s/.test(ch.c)) return;
            if (previous >= 0 && ch.top > chars[previous]!.top! + 2) {
              const between = chars.slice(previous + 1, i).map((x) => x.c).join('');
              const last = chars[previous]!.c;
              const hyphen = /\u00AD/.test(between + last);
              if (hyphen) soft++;
              else if (!/\s/.test(between) && !/[-–/]/.test(last)) {
                const word = chars.slice(Math.max(0, previous - 12), i + 6).map((x) => x.c).join('');
                problems.push(`"${word.replace(/\u00AD/g, '')}" at "${last}|${ch.c}"`);
              }
            }
            previous = i;
          });
        }
        return { problems, soft };
      });
      cut.push(...found.problems.map((p) => `${path}: ${p}`));
      softBreaks += found.soft;
    }
    expect(cut).toEqual([]);
    // Not vacuous: long German headings do break, at a soft hyphen ("Laboruntersu-chungen").
    expect(softBreaks).toBeGreaterThan(0);
  });
});

test.describe('the install banner on an iPhone', () => {
  const iPhone = devices['iPhone 13'];
  test.use({ userAgent: iPhone.userAgent, viewport: { width: 390, height: 664 }, isMobile: true, hasTouch: true });

  for (const [path, name, choose] of [
    ['/termin', 'Unsere Praxis-App', /^Auswählen:/],
    ['/en/termin', 'Our practice app', /^Select:/],
  ] as const) {
    test(`never covers a button or link of the page, from the top to the end (${path})`, async ({ page }) => {
      await page.goto(path);
      const banner = page.getByRole('complementary', { name });
      await expect(banner).toBeAttached();
      await page.getByRole('button', { name: choose }).first().waitFor();
      const covered = async () =>
        page.evaluate(() => {
          const banner = document.querySelector('[aria-labelledby="install-banner-title"]')!;
          const hidden: string[] = [];
          for (const el of document.querySelectorAll<HTMLElement>('main a[href], main button, main input, main summary')) {
            if (banner.contains(el)) continue;
            const r = el.getBoundingClientRect();
            const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
            if (r.width === 0 || y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) continue;
            if (banner.contains(document.elementFromPoint(x, y))) hidden.push(`${el.tagName} ${el.textContent?.trim().slice(0, 40)} at ${Math.round(window.scrollY)}`);
          }
          return hidden;
        });
      const hidden: string[] = [];
      const end = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      for (let y = 0; ; y = Math.min(y + 250, end)) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        hidden.push(...(await covered()));
        if (y >= end) break;
      }
      expect(hidden).toEqual([]);
      // It is there to be found, below the wizard.
      await banner.scrollIntoViewIfNeeded();
      await expect(banner).toBeInViewport();
      const wizardEnd = await page.locator('[data-booking-wizard]').evaluate((el) => el.getBoundingClientRect().bottom);
      expect((await banner.boundingBox())!.y).toBeGreaterThanOrEqual(wizardEnd);
      await axe(page, `${path} with the install banner`);
    });
  }
});
