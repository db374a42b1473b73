import { expect, test } from './helpers/test';
import { berlinDate } from './helpers/clock';
import { hydrated, signInAsAdmin } from './helpers/admin';
import { axeBuilder } from './helpers/axe';
import { chooseSlot, de, en, fillDetails, mailsTo, mailTo, onDateWithTimes, practiceNotificationOf, referenceIn, uniqueEmail } from './helpers/wizard';
import { formatLongDate } from '../../src/lib/dates';

test.describe('booking wizard (German)', () => {
  test('a full booking reaches the success screen and the outbox holds both emails', async ({ page }) => {
    await page.goto('/termin');
    await expect(page.getByRole('heading', { name: 'Grippeschutzimpfung 2026/27' })).toBeVisible();
    const progress = page.getByRole('progressbar', { name: 'Fortschritt der Buchung' });
    await expect(progress).toHaveAttribute('aria-valuenow', '25');
    await expect(page.getByRole('button', { name: 'Zurück' })).toBeDisabled();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Reisemedizinische Beratung' }) });
    await expect(card).toContainText('20 Minuten');
    await expect(card).toContainText('28 Tage im Voraus buchbar');
    await expect(card).toContainText('Preis: 35,00 €');
    const acute = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Akutsprechstunde' }) });
    await expect(acute).toContainText('Nur am selben Tag buchbar');

    const { time } = await chooseSlot(page, de, 'Check-up');
    await expect(progress).toHaveAttribute('aria-valuenow', '75');
    const summary = page.getByRole('complementary', { name: 'Zusammenfassung' });
    await expect(summary).toContainText('Check-up');
    await expect(summary).toContainText(`${time} Uhr (30 Minuten)`);

    const email = uniqueEmail('de');
    await fillDetails(page, de, email);
    await page.getByRole('button', { name: de.submit }).click();
    await expect(page.getByText('Termin erfolgreich gebucht!')).toBeVisible();
    await expect(page.getByText('Eine Bestätigung wurde an Ihre E-Mail-Adresse gesendet.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', '100');

    const confirmation = await mailTo(email);
    expect(await mailsTo(email)).toHaveLength(1);
    expect(confirmation.subject).toMatch(new RegExp(`^Terminbestätigung: Check-up am \\d\\d\\.\\d\\d\\.\\d{4} um ${time}$`));
    expect(confirmation.attachments[0]!.content).toContain('TZID=Europe/Berlin');
    // The practice is told what and when, with a link into the back office; not who (that is in the back office).
    const notification = (await practiceNotificationOf(referenceIn(confirmation.text)))!;
    expect(notification.text).toMatch(/\/admin\/booked-slots\?buchung=[0-9a-f-]{36}/);
    expect(notification.raw).not.toContain('Mustermann');

    await page.getByRole('button', { name: 'Neuen Termin buchen' }).click();
    await expect(page.getByRole('heading', { name: 'Welche Terminart möchten Sie buchen?' })).toBeVisible();
    await expect(progress).toHaveAttribute('aria-valuenow', '25');
  });

  test('every validation message shows in German', async ({ page }) => {
    await chooseSlot(page, de, 'Impfung');
    await page.getByRole('button', { name: de.submit }).click();
    for (const message of [
      'Vorname muss mindestens 2 Zeichen haben',
      'Nachname muss mindestens 2 Zeichen haben',
      'Bitte im Format TT.MM.JJJJ eingeben (z. B. 15.03.1990)',
      'Telefonnummer muss mindestens 10 Zeichen haben',
      'E-Mail-Adresse ist erforderlich',
      'Sie müssen der Datenschutzerklärung zustimmen',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    await page.getByLabel('Geburtsdatum').fill('31.02.1990');
    await page.getByLabel('Telefon').fill('0211 CALL ME');
    await page.getByRole('textbox', { name: 'E-Mail' }).fill('erika@');
    await page.getByRole('button', { name: de.submit }).click();
    await expect(page.getByText('Dieses Datum gibt es nicht. Bitte prüfen Sie Tag und Monat.')).toBeVisible();
    await expect(page.getByText('Bitte geben Sie eine gültige Telefonnummer ein')).toBeVisible();
    await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')).toBeVisible();
    await expect(page.getByLabel('Vorname')).toHaveAttribute('aria-invalid', 'true');
  });

  test('a time taken meanwhile: says so, back to step 2 without that time, Next disabled, details kept', async ({ page, request }) => {
    const { typeId, date, time } = await chooseSlot(page, de, 'Check-up', 1);
    // The summary shows the date chosen.
    await expect(page.getByRole('complementary', { name: 'Zusammenfassung' }).locator('dd').nth(1)).toHaveText(formatLongDate(date, 'de'));
    // Someone else books the same slot (capacity 1) while this patient types.
    const avail = (await (await request.get(`/api/availability?type=${typeId}&from=${date}&to=${date}`)).json()) as { days: Array<{ date: string; times: string[] }> };
    expect(avail.days[0]?.times).toContain(time);
    const other = await request.post('/api/bookings', {
      data: {
        appointment_type_id: typeId,
        appointment_date: date,
        appointment_time: time,
        first_name: 'Max',
        last_name: 'Schneller',
        birth_date: '1970-01-01',
        phone: '+49 211 1111111',
        email: uniqueEmail('other'),
        consent: true,
        language: 'de',
      },
    });
    expect(other.status()).toBe(201);

    await fillDetails(page, de, uniqueEmail('late'));
    await page.getByRole('button', { name: de.submit }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Diese Uhrzeit wurde gerade eben von jemand anderem gebucht' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeVisible();
    await expect(page.getByText('Buchungsfehler')).toHaveCount(0);
    const times = page.getByRole('group', { name: de.times });
    await expect(times.getByRole('button').first()).toBeVisible();
    await expect(times.getByRole('button', { name: `${time} Uhr`, exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: de.next, exact: true })).toBeDisabled();
    await times.getByRole('button').first().click();
    await page.getByRole('button', { name: de.next, exact: true }).click();
    await expect(page.getByLabel('Vorname')).toHaveValue('Erika');
    await expect(page.getByRole('checkbox', { name: de.labels.consent })).toBeChecked();
  });

  test('cancelling through the emailed link frees the time again; the link then no longer works', async ({ page }) => {
    const { typeId, date, time } = await chooseSlot(page, de, 'Check-up', 2);
    const email = uniqueEmail('cancel');
    await fillDetails(page, de, email);
    await page.getByRole('button', { name: de.submit }).click();
    await expect(page.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();

    const confirmation = await mailTo(email);
    const link = /(https?:\/\/\S+\/termin\/absagen\?token=[A-Za-z0-9_-]+)/.exec(confirmation.text)![1]!;
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByRole('heading', { name: 'Möchten Sie diesen Termin absagen?' })).toBeVisible();
    await expect(page.getByText(`${time} Uhr`)).toBeVisible();
    await page.getByRole('button', { name: 'Termin absagen' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ja, Termin absagen' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Termin abgesagt' })).toBeVisible();

    // The same time is offered again in the wizard, on its date (the wizard opens on the first free one, maybe another).
    await page.goto(`/termin?schritt=2&typ=${typeId}&datum=${date}`);
    await expect(page.getByRole('group', { name: de.times }).getByRole('button', { name: `${time} Uhr`, exact: true })).toBeVisible();

    await page.goto(new URL(link).pathname + new URL(link).search);
    // A link used by the patient names the cancellation (410 cancelled-by-patient), not an unknown link.
    await expect(page.getByRole('heading', { level: 1, name: 'Termin bereits abgesagt' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText(
      new RegExp(`Sie haben diesen Termin am \\p{L}+, \\d{1,2}\\. \\p{L}+ \\d{4} um ${time} Uhr abgesagt\\.`, 'u'),
    );
    await page.goto('/termin/absagen');
    await expect(page.getByRole('heading', { level: 1, name: 'Link unvollständig' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(/Der Link ist nicht vollständig angekommen/);
  });

  test('an undeliverable confirmation still books; reception sees the call it owes', async ({ page }) => {
    await chooseSlot(page, de, 'Impfung', 3);
    await fillDetails(page, de, 'erika@mail.invalid');
    await page.getByRole('button', { name: de.submit }).click();
    // The answer does not wait for the mail service (docs/decisions/035-email-outbox.md).
    await expect(page.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();
    const reference = (await page.getByTestId('booking-reference').innerText()).trim();
    // The refusal arrives after the answer and marks the booking for a call.
    await signInAsAdmin(page);
    await expect(async () => {
      await page.goto('/admin/booked-slots?filter=needs-call');
      await hydrated(page);
      await expect(page.getByRole('row').filter({ hasText: reference })).toContainText('E-Mail nicht zugestellt – bitte anrufen', { timeout: 2_000 });
    }).toPass();
  });

  test('can be used with the keyboard alone', async ({ page }) => {
    await page.goto('/termin');
    const tabTo = async (name: RegExp | string, role: 'button' | 'textbox' | 'checkbox' = 'button') => {
      const target = page.getByRole(role, { name }).first();
      for (let i = 0; i < 60; i++) {
        if (await target.evaluate((el) => el === document.activeElement)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`could not reach ${String(name)} with Tab`);
    };
    await tabTo(de.choose('Impfung'));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Datum und Uhrzeit wählen' })).toBeFocused();
    await onDateWithTimes(page);
    const firstTime = page.getByRole('group', { name: de.times }).getByRole('button').first();
    await expect(firstTime).toBeVisible();
    await tabTo(new RegExp(`^${(await firstTime.textContent())!.trim()} Uhr$`));
    await page.keyboard.press('Enter');
    await tabTo('Weiter');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Ihre Daten' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Erika');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Mustermann');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12.08.1964');
    await page.keyboard.press('Tab');
    await page.keyboard.type('+49 211 5550123');
    await page.keyboard.press('Tab');
    await page.keyboard.type(uniqueEmail('keys'));
    await tabTo(de.labels.consent, 'checkbox');
    await page.keyboard.press('Space');
    await tabTo(de.submit);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();
  });
});

test.describe('booking wizard (English)', () => {
  test('a full booking in English: English texts, validation and confirmation', async ({ page }) => {
    await page.goto('/en/termin');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: 'Flu vaccination 2026/27' })).toBeVisible();
    const { time } = await chooseSlot(page, en, 'Health check|Check-up');
    await page.getByRole('button', { name: en.submit }).click();
    for (const message of [
      'First name must be at least 2 characters',
      'Last name must be at least 2 characters',
      'Please enter the date as DD/MM/YYYY or DD.MM.YYYY (e.g. 15/03/1990)',
      'Phone number must be at least 10 characters',
      'Email address is required',
      'You must agree to the privacy policy',
    ]) {
      await expect(page.getByText(message)).toBeVisible();
    }
    const email = uniqueEmail('en');
    await fillDetails(page, en, email);
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByRole('button', { name: en.submit }).click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: en.submit }).click();
    await expect(page.getByText('Appointment successfully booked!')).toBeVisible();
    await expect(page.getByText('A confirmation has been sent to your email address.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();

    const confirmation = await mailTo(email);
    expect(confirmation.subject).toMatch(new RegExp(`^Appointment confirmation: .+ on [A-Z][a-z]{2} \\d{1,2} [A-Z][a-z]{2} \\d{4} at ${time}$`));
    const link = /(https?:\/\/\S+\/en\/termin\/absagen\?token=[A-Za-z0-9_-]+)/.exec(confirmation.text)![1]!;
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByRole('heading', { name: 'Do you want to cancel this appointment?' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel appointment' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, cancel it' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Appointment cancelled' })).toBeVisible();
  });

  test('a time taken meanwhile says so in English and returns to the calendar', async ({ page }) => {
    await chooseSlot(page, en, 'Health check|Check-up', 4);
    await page.route('**/api/bookings', (route) =>
      route.fulfill({ status: 409, contentType: 'application/problem+json', body: JSON.stringify({ type: 'slot-unavailable', status: 409 }) }),
    );
    await fillDetails(page, en, uniqueEmail('en-late'));
    await page.getByRole('button', { name: en.submit }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Someone else has just booked this time' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Choose date and time' })).toBeVisible();
    await expect(page.getByRole('button', { name: en.next, exact: true })).toBeDisabled();
  });
});

test('a rate-limited booking (429) shows the too-many-bookings message in German and keeps the form', async ({ page }) => {
  await chooseSlot(page, de, 'Impfung', 5);
  // The real limit (10 bookings per address per hour) would also stop the other tests' bookings from this address.
  await page.route('**/api/bookings', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/problem+json',
      headers: { 'retry-after': '3600' },
      body: JSON.stringify({ type: 'rate-limited', title: 'Too Many Requests', status: 429 }),
    }),
  );
  await fillDetails(page, de, uniqueEmail('limited'));
  await page.getByRole('button', { name: de.submit }).click();
  await expect(page.getByText('Zu viele Buchungen', { exact: true })).toBeVisible();
  await expect(
    page.getByText('Von diesem Anschluss oder für diese E-Mail-Adresse wurden in kurzer Zeit zu viele Termine gebucht. Bitte versuchen Sie es in 1 Stunde erneut oder rufen Sie uns an.'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Ihre Daten' })).toBeVisible();
  await expect(page.getByLabel('Vorname')).toHaveValue('Erika');
});

test('the calendar shows Berlin dates to a visitor in another time zone', async ({ browser, request }) => {
  const context = await browser.newContext({ timezoneId: 'Pacific/Kiritimati', locale: 'en-US' });
  const page = await context.newPage();
  const types = (await (await request.get('/api/appointment-types')).json()) as Array<{ id: string; name: string }>;
  const checkUp = types.find((t) => t.name === 'Check-up')!;
  const days = (await (await request.get(`/api/availability?type=${checkUp.id}&from=${berlinDate(0)}&to=${berlinDate(27)}`)).json()).days as Array<{
    date: string;
    times: string[];
  }>;
  const first = days.find((d) => d.times.length > 0)!;
  await page.goto('/en/termin');
  await page.getByRole('button', { name: en.choose('Health check|Check-up') }).click();
  await expect(page.getByText(formatLongDate(first.date, 'en'), { exact: true })).toBeVisible();
  await context.close();
});

test.describe('accessibility of the booking pages', () => {
  for (const texts of [de, en]) {
    test(`axe finds no violations on any wizard step (${texts.path})`, async ({ page }) => {
      const scan = async (label: string) => {
        // Step changes fade in (auto-animate); contrast is only meaningful once they settle.
        await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
        const results = await axeBuilder(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      };
      await page.goto(texts.path);
      await page.getByRole('heading', { level: 3 }).first().waitFor();
      await scan('step 1');
      await page.getByRole('button', { name: texts.choose('Impfung|Vaccination') }).click();
      await page.getByRole('group', { name: texts.times }).getByRole('button').first().waitFor();
      await scan('step 2');
      await page.getByRole('group', { name: texts.times }).getByRole('button').last().click();
      await page.getByRole('button', { name: texts.next, exact: true }).click();
      await page.getByRole('button', { name: texts.submit }).click();
      await page.getByRole('alert').first().waitFor();
      await scan('step 3 with errors');
      await page.goto(texts.path.replace('/termin', '/termin/absagen') + '?token=' + 'x'.repeat(43));
      await page.getByRole('alert').waitFor();
      await scan('cancel page');
    });
  }
});
