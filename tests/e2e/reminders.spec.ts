import { stat } from 'node:fs/promises';
import path from 'node:path';
import { expect, test } from './helpers/test';
import { onDateWithTimes } from './helpers/wizard';

/**
 * The reminder box in step 3: unticked by default, explained in one
 * sentence, and a booking with it ticked goes through (the local key file is
 * made on that first reminder booking). Sending is covered by the integration
 * tests and tests/integration/serve-reminders.test.ts.
 */
test('step 3 offers an unticked reminder box; a booking with it ticked succeeds', async ({ page }) => {
  await page.goto('/en/termin');
  await page.getByRole('button', { name: /^Select: (Health check|Check-up)$/ }).click();
  await onDateWithTimes(page);
  const times = page.getByRole('group', { name: 'Select time' }).getByRole('button');
  await expect(times.first()).toBeVisible();
  await times.last().click();
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const box = page.getByRole('checkbox', { name: 'Email reminder 24 hours before' });
  await expect(box).not.toBeChecked();
  await expect(box).toHaveAccessibleDescription(/after a move we remind you of the new time/);
  // Step 3 says in one sentence what is kept, why and until when (docs/architecture.md, Privacy).
  await expect(page.getByText('We keep your name, date of birth, phone number and email address encrypted. Only our practice team sees them, in our appointment system, to know who is coming and to tell you about changes. They are deleted at the end of the day of your appointment, or when it is cancelled.')).toBeVisible();
  await page.getByLabel('First name').fill('Erika');
  await page.getByLabel('Last name').fill('Mustermann');
  await page.getByLabel('Date of birth').fill('12.08.1964');
  await page.getByLabel('Phone').fill('+49 211 5550123');
  await page.getByRole('textbox', { name: 'Email' }).fill(`reminder-${Date.now()}@example.org`);
  await page.getByRole('checkbox', { name: /privacy policy/ }).check();
  await box.check();
  const request = page.waitForRequest((r) => r.url().endsWith('/api/bookings') && r.method() === 'POST');
  await page.getByRole('button', { name: 'Book appointment (binding)' }).click();
  expect((await request).postDataJSON()).toMatchObject({ reminder: true });
  await expect(page.getByRole('heading', { name: 'Your appointment is booked!' })).toBeVisible();
  expect((await stat(path.join(process.env.E2E_DATA_DIR!, 'data-encryption.key'))).mode & 0o777).toBe(0o600);
});
