/**
 * The suite's clock (tests/e2e/helpers/clock.ts): the server, the browser
 * and the tests read the same "now", also when E2E_NOW sets it to another
 * day. The server's now is read from the Date header of an email it sends.
 */
import { expect, test } from './helpers/test';
import { readOutbox } from '../helpers/eml';
import { now } from './helpers/clock';
import { outbox } from './helpers/wizard';

const MINUTE = 60_000;

test('the server, the browser and the tests agree on now', async ({ page }) => {
  await page.goto('/kontakt');
  const browser = await page.evaluate(() => ({ now: Date.now(), date: new Date().getTime() }));
  expect(Math.abs(browser.now - now().getTime()), 'Date.now() in the browser').toBeLessThan(MINUTE);
  expect(Math.abs(browser.date - now().getTime()), 'new Date() in the browser').toBeLessThan(MINUTE);

  const subject = `Uhrzeit ${now().getTime()}`;
  const sent = await page.request.post('/api/contact', {
    headers: { origin: new URL(page.url()).origin },
    data: { name: 'Erika Uhr', email: 'uhr@example.org', subject, message: 'Wie spät ist es?', language: 'de' },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const mail = (await readOutbox(outbox())).find((m) => m.subject === `Kontaktanfrage: ${subject}`);
  expect(mail, 'the practice email in the outbox').toBeDefined();
  expect(Math.abs(Date.parse(mail!.headers.date!) - now().getTime()), `the email's Date: ${mail!.headers.date}`).toBeLessThan(MINUTE);
});
