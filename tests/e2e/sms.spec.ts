/**
 * SMS end to end (docs/decisions/043-sms-second-channel.md), with the local
 * stand-in of the SMS provider: reception books a caller by phone with a
 * mobile number and "SMS an diese Nummer erlaubt", the confirmation arrives
 * as a .sms.txt file in the outbox folder; then a block over that day
 * cancels the appointment, its SMS arrives too, and the week view says
 * "SMS gesendet".
 *
 * Everything happens on a type this file creates, on a date a week ahead.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './helpers/test';
import { berlinToday } from './helpers/clock';
import { addDaysToDate } from '../../src/lib/berlin-time';
import { hydrated, pickSlot, signInAsAdmin, fillCaller } from './helpers/admin';

const outbox = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const stamp = Date.now();

/** The texts of the .sms.txt files sent to `to` (E.164), oldest first. */
async function smsTo(to: string): Promise<string[]> {
  const names = (await readdir(outbox()).catch(() => [] as string[])).filter((f) => f.endsWith('.sms.txt')).sort();
  const texts: string[] = [];
  for (const name of names) {
    const raw = await readFile(path.join(outbox(), name), 'utf8');
    const [head, ...body] = raw.split('\n\n');
    if (head!.split('\n').includes(`To: ${to}`)) texts.push(body.join('\n\n').trim());
  }
  return texts;
}

test('a phone booking with a mobile number and SMS consent is confirmed by SMS; a block over its day tells the patient by SMS, and the week view says "SMS gesendet"', async ({ page }) => {
  // A mobile number no other test uses (the stand-in files are shared by the run).
  const mobile = `0176 ${String(stamp % 100_000_000).padStart(8, '1')}`;
  const e164 = `+49176${String(stamp % 100_000_000).padStart(8, '1')}`;
  const date = addDaysToDate(berlinToday(), 7);
  await signInAsAdmin(page);
  const headers = { origin: new URL(page.url()).origin };
  const created = await page.request.post('/api/admin/appointment-types', {
    headers,
    data: { name: `SMS ${stamp}`, description: 'Nur für den Test.', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1 },
  });
  expect(created.status()).toBe(201);
  const type = (await created.json()) as { id: string; name: string };
  for (let day = 0; day < 7; day++) {
    expect((await page.request.post('/api/admin/time-slots', { headers, data: { appointment_type_id: type.id, day_of_week: day, start_time: '08:00', end_time: '12:00' } })).status()).toBe(201);
  }

  // "Termin eintragen" with a mobile number, no email, and the caller's yes to SMS.
  await page.goto('/admin/booked-slots');
  await hydrated(page);
  await page.getByRole('button', { name: 'Termin eintragen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Termin eintragen' });
  await dialog.getByLabel('Terminart').selectOption({ label: type.name });
  await pickSlot(dialog, date, '09:00');
  await fillCaller(dialog, { first_name: 'Hannelore', last_name: 'Kurznachricht', phone: mobile });
  await dialog.getByRole('checkbox', { name: 'SMS an diese Nummer erlaubt' }).check();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Der Patient erhält die Bestätigung per SMS (Datum, Uhrzeit, Telefonnummer der Praxis).')).toBeVisible();

  // The confirmation arrives in the outbox folder: date, time, the practice's phone; no type, no name.
  await expect.poll(async () => (await smsTo(e164)).length, { timeout: 30_000 }).toBe(1);
  const [confirmation] = await smsTo(e164);
  expect(confirmation).toMatch(/Ihr Termin am .+ um 09:00 Uhr ist eingetragen\. Absagen oder verschieben: Tel\. /);
  expect(confirmation).not.toContain(type.name);
  expect(confirmation).not.toContain('Kurznachricht');

  // A block over that day: the dialog says the patient is told by SMS, then cancels.
  await page.goto('/admin/blocked-dates');
  await hydrated(page);
  await page.getByRole('button', { name: 'Tag sperren' }).click();
  const block = page.getByRole('dialog', { name: 'Tag sperren' });
  await block.getByLabel('Datum (erster Tag)').fill(date);
  await block.getByLabel('Terminart').selectOption({ label: type.name });
  await block.getByRole('button', { name: 'Speichern' }).click();
  const covered = block.getByRole('list', { name: 'Betroffene Termine' });
  await expect(covered).toContainText('Kurznachricht, Hannelore');
  await expect(covered).toContainText('SMS (keine E-Mail-Adresse)');
  await block.getByRole('button', { name: 'Sperren und diese Termine absagen (Patienten werden benachrichtigt)' }).click();
  await expect(block.getByRole('status')).toContainText('Patient wird per SMS informiert');
  await block.getByRole('button', { name: 'Fertig' }).click();

  await expect.poll(async () => (await smsTo(e164)).length, { timeout: 30_000 }).toBe(2);
  expect((await smsTo(e164))[1]).toMatch(/Leider müssen wir Ihren Termin am .+ um 09:00 Uhr absagen\./);

  // The week view: the cancelled booking, struck through, told by SMS.
  await page.goto(`/admin/woche?datum=${date}`);
  await hydrated(page);
  const row = page.getByRole('row').filter({ hasText: 'Kurznachricht, Hannelore' });
  await expect(row).toContainText('von der Praxis abgesagt');
  await expect(row).toContainText('SMS gesendet');
  await expect(row).not.toContainText('bitte anrufen');
});
