/**
 * The waitlist end to end at 375 px (docs/decisions/032-waitlist.md,
 * docs/decisions/038-waitlist-offers-for-freed-times.md), on dates read
 * from the availability (any day, any time: the e2e server lifts the offer
 * hours with WAITLIST_OFFERS_ANY_HOUR):
 * - from a booking's link: the form names the type and the current
 *   appointment and offers only weekdays with windows; after joining, the
 *   times free now are listed (not emailed); a time freed later is emailed
 *   ("frei geworden"), taken ("Dieser Termin gehört Ihnen: …"), the booking
 *   moved (same UID, higher SEQUENCE), and the link then shows the booking;
 * - without a booking, in English: the phone number is required, the birth
 *   date reads DD/MM/YYYY, a time free now is taken at once;
 * - the one who lost the race sees "Schon vergeben" and takes the next
 *   free time with the same link.
 */
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { berlinDate } from './helpers/clock';
import { longDate, shortWhen } from '../../src/lib/plain-dates';
import { icsOf } from '../helpers/ics';
import { expectNoAxeViolations } from './helpers/axe';
import { bookingRequest } from '../helpers/patient';
import { bookWithLink, mailsTo, uniqueEmail } from './helpers/wizard';

const TYPE = 'Reisemedizinische Beratung';
const TYPE_EN = 'Travel medicine advice';

async function fitsWidth(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

const berlin = berlinDate;

async function typeAndDays(request: APIRequestContext) {
  const types = (await (await request.get('/api/appointment-types')).json()) as Array<{ id: string; name: string; max_advance_days: number }>;
  const type = types.find((x) => x.name === TYPE)!;
  const { days } = (await (await request.get(`/api/availability?type=${type.id}&from=${berlin(1)}&to=${berlin(type.max_advance_days)}`)).json()) as {
    days: Array<{ date: string; times: string[] }>;
  };
  return { type, days };
}

/** A booking by someone else (through the API, as the wizard makes it); answers its link token. */
async function bookAsSomeoneElse(request: APIRequestContext, typeId: string, date: string, time: string) {
  const email = uniqueEmail('other');
  const res = await request.post('/api/bookings', { data: bookingRequest(typeId, date, time, { email }) });
  expect(res.status()).toBe(201);
  let token = '';
  await expect
    .poll(async () => {
      token = /token=([A-Za-z0-9_-]{43})/.exec((await mailsTo(email))[0]?.text ?? '')?.[1] ?? '';
      return token;
    })
    .not.toBe('');
  return token;
}

/** The offer email to `email` once it is there: its subject, text and the link's path. */
async function offerTo(email: string, subject: RegExp) {
  let mail: Awaited<ReturnType<typeof mailsTo>>[number] | undefined;
  await expect
    .poll(async () => {
      mail = (await mailsTo(email)).find((m) => subject.test(m.subject));
      return mail !== undefined;
    })
    .toBe(true);
  const url = new URL(/(https?:\/\/\S+\/termin\/warteliste\?offer=[A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!);
  return { mail: mail!, path: url.pathname + url.search, token: url.searchParams.get('offer')! };
}

test('from a booking\'s link: the form names type and appointment; times free now are listed; a time freed later is emailed, taken, and its link shows the booking', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { booking, day, email, linkPath } = await bookWithLink(request, TYPE, 'de');
  const current = day.times[0]!;
  const { type, days } = await typeAndDays(request);
  const early = days.find((d) => d.date < day.date && d.times.length >= 2)!;
  // Someone else holds the earlier time; it frees up only after the patient asked.
  const other = await bookAsSomeoneElse(request, type.id, early.date, early.times[0]!);

  await page.goto(linkPath);
  await page.getByRole('link', { name: 'Früheren Termin gewünscht' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Früheren Termin gewünscht' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Früheren Termin gewünscht' });
  await expect(form.getByText(TYPE)).toBeVisible();
  await expect(form.getByText(shortWhen(day.date, current, 'de'))).toBeVisible();
  // Windows Monday to Friday: no Saturday, no Sunday.
  await expect(page.getByRole('group', { name: 'Wochentage' }).getByRole('checkbox')).toHaveCount(5);
  await expect(page.getByRole('group', { name: 'Wochentage' })).not.toContainText('Sa');
  await page.getByLabel('Ab wann').fill(early.date);
  await page.getByLabel('Bis').fill(early.date);
  await fitsWidth(page);
  await page.getByRole('button', { name: 'Eintragen' }).click();
  await expect(page.getByText(/Sie stehen auf der Warteliste/)).toBeVisible();
  // What is free right now is offered on the page, never by email.
  await expect(page.getByRole('heading', { level: 2, name: 'Schon jetzt frei' })).toBeVisible();
  await expect(page.getByRole('button', { name: `Übernehmen: ${shortWhen(early.date, early.times[1]!, 'de')}` })).toBeVisible();
  await fitsWidth(page);
  await expectNoAxeViolations(page, 'joined, with the times free now');

  // The other patient cancels: that time became free after the patient asked.
  expect((await request.post('/api/bookings/cancel', { data: { token: other } })).status()).toBe(200);
  const offer = await offerTo(email, /^Früherer Termin frei: /);
  expect(offer.mail.subject).toContain(early.times[0]!);
  expect(offer.mail.text).toContain('frei geworden');
  expect((await mailsTo(email)).filter((m) => /^Früherer Termin frei: /.test(m.subject))).toHaveLength(1);

  await page.goto(offer.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Früherer Termin frei' })).toBeVisible();
  await expect(page.getByText(longDate(early.date, 'de'), { exact: true })).toBeVisible();
  await fitsWidth(page);
  await page.getByRole('button', { name: 'Übernehmen' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dieser Termin gehört Ihnen' })).toBeVisible();
  await expect(page.getByText(`Dieser Termin gehört Ihnen: ${shortWhen(early.date, early.times[0]!, 'de')}`)).toBeVisible();

  // The move email: same UID, higher SEQUENCE, the freed time.
  let moved: Awaited<ReturnType<typeof mailsTo>>[number] | undefined;
  await expect
    .poll(async () => {
      moved = (await mailsTo(email)).find((m) => m.attachments.some((a) => a.contentType.startsWith('text/calendar')) && icsOf(m).sequence === 1);
      return moved !== undefined;
    })
    .toBe(true);
  expect(icsOf(moved!)).toMatchObject({ uid: `${booking.id}@localhost`, start: `${early.date}T${early.times[0]}` });

  // The spent link shows the booking it became, with the booking's own link.
  await page.goto(offer.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Dieser Termin gehört Ihnen' })).toBeVisible();
  await expect(page.getByText(`Dieser Termin gehört Ihnen: ${shortWhen(early.date, early.times[0]!, 'de')}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Termin ansehen, verschieben oder absagen' })).toHaveAttribute('href', linkPath);
});

test('without a booking, in English: the phone number is required, the birth date reads DD/MM/YYYY, a time free now is taken at once', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { type, days } = await typeAndDays(request);
  const day = days.find((d) => d.times.length >= 2)!;
  const email = uniqueEmail('waiting-en');
  await page.goto(`/en/termin/warteliste?type=${type.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Want an earlier appointment?' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Want an earlier appointment?' });
  await expect(form.getByText(TYPE_EN)).toBeVisible();
  await expect(page.getByLabel('Date of birth *')).toHaveAttribute('placeholder', 'DD/MM/YYYY');
  await page.getByLabel('From').fill(day.date);
  await page.getByLabel('Until').fill(day.date);
  await page.getByLabel('First name *').fill('Wilma');
  await page.getByLabel('Last name *').fill('Wartend');
  await page.getByLabel('Date of birth *').fill('03/02/1970');
  await page.getByLabel('Email *').fill(email);
  await page.getByRole('checkbox', { name: /I have read the/ }).check();
  await fitsWidth(page);
  await page.getByRole('button', { name: 'Join the list' }).click();
  await expect(page.getByText('Phone number must be at least 10 characters')).toBeVisible();
  await expectNoAxeViolations(page, 'the form with a refusal');
  await expect(page.getByLabel('Phone *')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Phone *')).toBeFocused();
  await page.getByLabel('Phone *').fill('0211 555 01 99');
  await page.getByRole('button', { name: 'Join the list' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Free right now' })).toBeVisible();
  const first = shortWhen(day.date, day.times[0]!, 'en');
  await page.getByRole('button', { name: `Take: ${first}` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'This appointment is yours' })).toBeVisible();
  await expect(page.getByText(`This appointment is yours: ${first}`)).toBeVisible();
  await fitsWidth(page);
  await expectNoAxeViolations(page, 'the booking it became');
  // The booking's confirmation with its calendar entry, in English.
  await expect
    .poll(async () => (await mailsTo(email)).some((m) => m.attachments.some((a) => a.contentType.startsWith('text/calendar')) && icsOf(m).start === `${day.date}T${day.times[0]}`))
    .toBe(true);
});

test('the one who lost the race sees "Schon vergeben" and takes the next free time with the same link', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { type, days } = await typeAndDays(request);
  const day = days.find((d) => d.times.length >= 3)!;
  const held = await bookAsSomeoneElse(request, type.id, day.date, day.times[0]!);
  const join = async () => {
    const email = uniqueEmail('race');
    const res = await request.post('/api/waitlist', {
      data: { appointment_type_id: type.id, first_name: 'Rita', last_name: 'Rennen', birth_date: '1980-05-06', email, phone: '0211 555 02 00', language: 'de', consent: true, from: day.date, to: day.date },
    });
    expect(res.status()).toBe(201);
    return email;
  };
  const [a, b] = [await join(), await join()];
  expect((await request.post('/api/bookings/cancel', { data: { token: held } })).status()).toBe(200);
  const offerA = await offerTo(a, /^Früherer Termin frei: /);
  const offerB = await offerTo(b, /^Früherer Termin frei: /);
  expect((await request.post('/api/waitlist/offer', { data: { token: offerA.token } })).status()).toBe(200);

  await page.goto(offerB.path);
  await expect(page.getByRole('heading', { level: 1, name: 'Schon vergeben' })).toBeVisible();
  await expect(page.getByText('Dieser Termin ist schon vergeben. Sie bleiben auf der Warteliste.')).toBeVisible();
  await fitsWidth(page);
  await expectNoAxeViolations(page, 'Schon vergeben');
  const next = shortWhen(day.date, day.times[1]!, 'de');
  await page.getByRole('button', { name: `Übernehmen: ${next}` }).click();
  await expect(page.getByText(`Dieser Termin gehört Ihnen: ${next}`)).toBeVisible();
});
