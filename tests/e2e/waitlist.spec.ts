/**
 * The waitlist end to end at 375 px, in German and English
 * (docs/decisions/032-waitlist.md): a patient with a booking asks for an
 * earlier time from the emailed link's page ("Früheren Termin gewünscht"),
 * gets the offer email of an earlier free time within the request, opens
 * it, takes it ("Übernehmen") and receives the move email whose .ics keeps
 * the booking's UID with a higher SEQUENCE; the offer link is spent then.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { formatLongDate } from '../../src/lib/dates';
import { icsOf } from '../helpers/ics';
import { bookWithLink, mailsTo } from './helpers/wizard';

const TYPE = 'Reisemedizinische Beratung';

const TEXTS = {
  de: {
    ask: 'Früheren Termin gewünscht',
    askHeading: 'Früheren Termin gewünscht',
    submit: 'Eintragen',
    done: /Sie stehen auf der Warteliste/,
    offerSubject: /^Früherer Termin frei: /,
    offerHeading: 'Früherer Termin frei',
    take: 'Übernehmen',
    taken: /Der Termin gehört Ihnen/,
    expired: 'Dieses Angebot gilt nicht mehr.',
  },
  en: {
    ask: 'I want an earlier appointment',
    askHeading: 'Want an earlier appointment?',
    submit: 'Join the list',
    done: /You are on the waiting list/,
    offerSubject: /^An earlier time is free: /,
    offerHeading: 'An earlier time is free',
    take: 'Take it',
    taken: /the appointment is yours/,
    expired: 'This offer is no longer valid.',
  },
} as const;

async function fitsWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

for (const lang of ['de', 'en'] as const) {
  test(`asking for an earlier time, the offer email and taking it at 375 px (${lang})`, async ({ page, request }) => {
    const L = TEXTS[lang];
    await page.setViewportSize({ width: 375, height: 800 });
    // A booking on the last date with free times: earlier free times exist.
    const { booking, day, email, linkPath } = await bookWithLink(request, TYPE, lang);

    await page.goto(linkPath);
    await page.getByRole('link', { name: L.ask }).click();
    await expect(page.getByRole('heading', { level: 1, name: L.askHeading })).toBeVisible();
    await fitsWidth(page);
    await page.getByRole('button', { name: L.submit }).click();
    await expect(page.getByText(L.done)).toBeVisible();

    // The request that made the entry offers the earliest fitting free time at once.
    let offerUrl = '';
    let subject = '';
    await expect
      .poll(async () => {
        const offer = (await mailsTo(email)).find((m) => L.offerSubject.test(m.subject));
        offerUrl = /(https?:\/\/\S+\/termin\/warteliste\?offer=[A-Za-z0-9_-]{43})/.exec(offer?.text ?? '')?.[1] ?? '';
        subject = offer?.subject ?? '';
        return offerUrl;
      })
      .not.toBe('');
    const offered = /(\d{2}:\d{2})$/.exec(subject)![1]!;

    const offerPath = new URL(offerUrl).pathname + new URL(offerUrl).search;
    await page.goto(offerPath);
    await expect(page.getByRole('heading', { level: 1, name: L.offerHeading })).toBeVisible();
    await expect(page.getByText(formatLongDate(day.date, lang))).toBeVisible();
    await fitsWidth(page);
    await page.getByRole('button', { name: L.take }).click();
    await expect(page.getByText(L.taken)).toBeVisible();

    // The move email: same UID, higher SEQUENCE, the offered time.
    let moved: Awaited<ReturnType<typeof mailsTo>>[number] | undefined;
    await expect
      .poll(async () => {
        moved = (await mailsTo(email)).find((m) => m.attachments.some((a) => a.contentType.startsWith('text/calendar')) && icsOf(m).sequence === 1);
        return moved !== undefined;
      })
      .toBe(true);
    const ics = icsOf(moved!);
    expect(ics.uid).toBe(`${booking.id}@localhost`);
    expect(ics.start.slice(11)).toBe(offered);

    // Spent: the entry is gone, so the link says the offer no longer holds.
    await page.goto(offerPath);
    await expect(page.getByText(L.expired)).toBeVisible();
  });
}
