/**
 * Issue 22 (patient details, third round), as patients meet it, in both
 * languages: what the emails and the success screen tell.
 */
import { expect, test } from '@playwright/test';
import { parse } from 'date-fns';
import { de as deLocale } from 'date-fns/locale/de';
import { enGB } from 'date-fns/locale/en-GB';
import { chooseSlot, de, en, fillDetails, mailsTo, uniqueEmail } from './helpers/wizard';

/** A date the email wrote, read back with date-fns in the email's own format and language. */
function readDate(text: string, format: string, lang: 'de' | 'en'): string {
  const date = parse(text, format, new Date(2000, 0, 1, 12), { locale: lang === 'de' ? deLocale : enGB });
  expect(Number.isNaN(date.getTime()), `"${text}" as ${format}`).toBe(false);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

const emailDates = {
  de: {
    texts: de,
    subject: /^Terminbestätigung: Check-up am (\d\d\.\d\d\.\d{4}) um (\d\d:\d\d)$/,
    subjectFormat: 'dd.MM.yyyy',
    body: /^Datum: (.+)$/m,
    bodyFormat: 'EEEE, d. MMMM yyyy',
  },
  en: {
    texts: en,
    subject: /^Appointment confirmation: (?:Health check|Check-up) on (\w{3} \d{1,2} \w{3} \d{4}) at (\d\d:\d\d)$/,
    subjectFormat: 'EEE d MMM yyyy',
    body: /^Date: (.+)$/m,
    bodyFormat: 'EEEE, d MMMM yyyy',
  },
} as const;

for (const lang of ['de', 'en'] as const) {
  const l = emailDates[lang];

  test(`emails write dates in the booking's language (${lang})`, async ({ page }) => {
    const { time } = await chooseSlot(page, l.texts, 'Health check|Check-up');
    const booked = new URL(page.url()).searchParams.get(lang === 'de' ? 'datum' : 'date')!;
    const email = uniqueEmail(`dates-${lang}`);
    await fillDetails(page, l.texts, email);
    await page.getByRole('button', { name: l.texts.submit }).click();
    await expect(page.getByRole('heading', { name: lang === 'de' ? 'Ihr Termin ist gebucht!' : 'Your appointment is booked!' })).toBeVisible();

    await expect.poll(async () => (await mailsTo(email)).length).toBe(2);
    const mails = await mailsTo(email);
    const confirmation = mails.find((m) => m.headers.to === email)!;
    const [, subjectDate, subjectTime] = l.subject.exec(confirmation.subject) ?? [];
    expect(subjectDate, confirmation.subject).toBeTruthy();
    expect(readDate(subjectDate!, l.subjectFormat, lang)).toBe(booked);
    expect(subjectTime).toBe(time);
    expect(readDate(l.body.exec(confirmation.text)![1]!, l.bodyFormat, lang)).toBe(booked);
    // The practice's notification is German whatever the patient's language.
    const notification = mails.find((m) => m.headers['reply-to'] === email)!;
    expect(readDate(/ am (\d\d\.\d\d\.\d{4}) um /.exec(notification.subject)![1]!, 'dd.MM.yyyy', 'de')).toBe(booked);
    expect(readDate(/^Datum: (.+)$/m.exec(notification.text)![1]!, 'EEEE, d. MMMM yyyy', 'de')).toBe(booked);
  });
}
