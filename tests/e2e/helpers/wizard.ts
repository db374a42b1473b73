import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { formatLongDate } from '../../../src/lib/dates';
import { readOutbox, type ParsedEml } from '../../helpers/eml';
import { bookingRequest } from '../../helpers/patient';
import { settled } from './axe';
import { showMonthOf } from './calendar';
import { berlinDate } from './clock';

/**
 * Step 2 on a date that keeps at least `count` free times for the rest of the
 * test. The wizard opens on the first date with a free time, which late in
 * the practice's day is today with its last few times, and several workers
 * book the first times of the first type at once. After the type is chosen,
 * this chooses, in the wizard's calendar, the first date from the day after
 * tomorrow with enough times, unless it is already on one (a date is chosen
 * within step 2, so the history keeps one entry for the step).
 */
export async function onDateWithTimes(page: Page, count = 1): Promise<void> {
  await page.waitForURL(/[?&](datum|date)=\d{4}-\d{2}-\d{2}/);
  // A person taps a date once the step has changed: step 1 faded out and the
  // page scrolled to the wizard. A tap while the old step still leaves moves
  // the calendar between press and release, and no browser counts that as a click.
  await expect(page.getByRole('heading', { name: /^(Welche Terminart möchten Sie buchen\?|Which type of appointment would you like\?)$/ })).toHaveCount(0);
  await settled(page);
  const url = new URL(page.url());
  const [typeParam, dateParam] = url.searchParams.has('typ') ? ['typ', 'datum'] : ['type', 'date'];
  const type = url.searchParams.get(typeParam)!;
  const chosen = url.searchParams.get(dateParam)!;
  const from = berlinDate(2);
  const res = await page.request.get(`/api/availability?type=${type}&from=${from}&to=${berlinDate(62)}`);
  expect(res.status()).toBe(200);
  const { days } = (await res.json()) as { days: Array<{ date: string; times: string[] }> };
  if (chosen >= from && (days.find((d) => d.date === chosen)?.times.length ?? 0) >= count) return;
  const day = days.find((d) => d.times.length >= count);
  if (!day) throw new Error(`no date with ${count} free times from ${from}`);
  const lang = typeParam === 'typ' ? 'de' : 'en';
  await showMonthOf(page, day.date, lang);
  await page.getByRole('button', { name: new RegExp(formatLongDate(day.date, lang)) }).click();
  await page.waitForURL((u) => u.searchParams.get(dateParam) === day.date);
  const times = page.getByRole('group', { name: /^(Uhrzeit wählen|Select time)$/ }).getByRole('button');
  await expect(times.nth(count - 1)).toBeVisible();
}

export const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
let counter = 0;
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${counter++}@example.org`;

export async function mailsTo(address: string) {
  return (await readOutbox(outbox())).filter((m) => m.headers.to === address || m.headers['reply-to'] === address);
}

/**
 * The first email in the outbox that `matches`, once it is there: the outbox
 * sends right after the answer, not with it (docs/decisions/035-email-outbox.md).
 */
export async function arrivedMail(matches: (m: ParsedEml) => boolean, what: string, dir = outbox()): Promise<ParsedEml> {
  let found: ParsedEml | undefined;
  await expect.poll(async () => (found = (await readOutbox(dir)).find(matches)) !== undefined, { message: `${what} in the outbox` }).toBe(true);
  return found!;
}

/** The first email to `address` (that `matches`), once it is there. */
export const mailTo = (address: string, matches: (m: ParsedEml) => boolean = () => true) =>
  arrivedMail((m) => m.headers.to === address && matches(m), `an email to ${address}`);

/** The practice's notification of the booking with `reference` (it names no patient, so it is found by the reference), once it is there. */
export const practiceNotificationOf = (reference: string) =>
  arrivedMail(
    (m) => m.headers.to === 'praxis@localhost' && m.subject.startsWith('Neuer Online-Termin') && m.text.includes(`Buchungsnummer: ${reference}`),
    `the practice's notification of ${reference}`,
  );

/** The reference in a confirmation email. */
export const referenceIn = (text: string) => /Buchungsnummer: ([2-9A-HJKMNP-Z]{6})|Booking reference: ([2-9A-HJKMNP-Z]{6})/.exec(text)!.slice(1).find(Boolean)!;

export interface Texts {
  path: string;
  choose: (type: string) => RegExp;
  times: string;
  next: string;
  submit: string;
  labels: { first: string; last: string; birth: string; phone: string; email: string; consent: RegExp };
}

export const de: Texts = {
  path: '/termin',
  choose: (type) => new RegExp(`^Auswählen: ${type}$`),
  times: 'Uhrzeit wählen',
  next: 'Weiter',
  submit: 'Termin verbindlich buchen',
  labels: { first: 'Vorname', last: 'Nachname', birth: 'Geburtsdatum', phone: 'Telefon', email: 'E-Mail', consent: /Datenschutzerklärung/ },
};
export const en: Texts = {
  path: '/en/termin',
  choose: (type) => new RegExp(`^Select: ${type}$`),
  times: 'Select time',
  next: 'Next',
  submit: 'Book appointment (binding)',
  labels: { first: 'First name', last: 'Last name', birth: 'Date of birth', phone: 'Phone', email: 'Email', consent: /privacy policy/ },
};

/** Steps 1 and 2: chooses the type, a date (onDateWithTimes) and its time at `timeIndex`; returns the type's id, the date and the time. */
export async function chooseSlot(page: Page, texts: Texts, type: string, timeIndex = 0) {
  await page.goto(texts.path);
  await page.getByRole('button', { name: texts.choose(type) }).click();
  await onDateWithTimes(page, timeIndex + 1);
  const url = new URL(page.url());
  const typeId = (url.searchParams.get('typ') ?? url.searchParams.get('type'))!;
  const date = (url.searchParams.get('datum') ?? url.searchParams.get('date'))!;
  const times = page.getByRole('group', { name: texts.times }).getByRole('button');
  await expect(times.nth(timeIndex)).toBeVisible();
  const time = (await times.nth(timeIndex).textContent())!.trim();
  await times.nth(timeIndex).click();
  await expect(times.nth(timeIndex)).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: texts.next, exact: true }).click();
  return { typeId, date, time };
}

export async function fillDetails(page: Page, texts: Texts, email: string) {
  const l = texts.labels;
  await page.getByLabel(l.first).fill('Erika');
  await page.getByLabel(l.last).fill('Mustermann');
  await page.getByLabel(l.birth).fill('12.08.1964');
  await page.getByLabel(l.phone).fill('+49 211 5550123');
  await page.getByLabel(l.email, { exact: false }).first().fill(email);
  await page.getByRole('checkbox', { name: l.consent }).check();
}

/**
 * A booking made through the API, as the wizard makes it, in `lang`: on the
 * last date within the type's advance limit that has `times` free times (away
 * from the dates other specs book), at the first of them. Answers the booking,
 * its date and free times, and the path of the cancellation link its
 * confirmation email carries.
 */
export async function bookWithLink(request: APIRequestContext, typeName: string, lang: 'de' | 'en', times = 4) {
  const types = (await (await request.get('/api/appointment-types')).json()) as Array<{ id: string; name: string; max_advance_days: number }>;
  const type = types.find((x) => x.name === typeName)!;
  const { days } = (await (await request.get(`/api/availability?type=${type.id}&from=${berlinDate(1)}&to=${berlinDate(type.max_advance_days)}`)).json()) as {
    days: Array<{ date: string; times: string[] }>;
  };
  const day = days.filter((d) => d.times.length >= times).at(-1);
  if (!day) throw new Error(`no date with ${times} free times for ${typeName}`);
  const email = uniqueEmail(`link-${lang}`);
  const response = await request.post('/api/bookings', { data: bookingRequest(type.id, day.date, day.times[0]!, { email, language: lang }) });
  expect(response.status()).toBe(201);
  const { booking } = (await response.json()) as { booking: { id: string; reference: string } };
  let link = '';
  await expect
    .poll(async () => {
      const mail = (await mailsTo(email)).find((m) => m.headers.to === email);
      link = /(https?:\/\/\S+\/termin\/absagen\?token=[A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1] ?? '';
      return link;
    })
    .not.toBe('');
  return { booking, type, day, email, linkPath: new URL(link).pathname + new URL(link).search };
}
