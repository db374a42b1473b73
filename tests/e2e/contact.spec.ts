import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { readOutbox } from '../helpers/eml';
import { startSecondServer, type SecondServer } from './helpers/second-server';

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');

const texts = {
  de: {
    path: '/kontakt',
    name: 'Name',
    email: 'E-Mail',
    phone: 'Telefon',
    subject: 'Betreff',
    message: 'Nachricht',
    submit: 'Nachricht senden',
    sending: 'Wird gesendet...',
    sent: 'Nachricht gesendet!',
    required: 'Bitte füllen Sie alle Pflichtfelder aus.',
    failed: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es später erneut.',
    transport: 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es später erneut oder rufen Sie uns an.',
    error: 'Fehler',
  },
  en: {
    path: '/en/kontakt',
    name: 'Name',
    email: 'Email',
    phone: 'Phone',
    subject: 'Subject',
    message: 'Message',
    submit: 'Send message',
    sending: 'Sending...',
    sent: 'Message sent!',
    required: 'Please fill in all required fields.',
    failed: 'Your message could not be sent. Please try again later.',
    transport: 'Your message could not be sent. Please try again later or call us.',
    error: 'Error',
  },
} as const;

async function open(page: Page, lang: 'de' | 'en', url: string) {
  await page.context().addInitScript((l) => localStorage.setItem('i18nextLng', l), lang);
  await page.goto(url);
  // The island hydrates on the first interaction with the form (client:interaction).
  await page.locator('form').hover();
  await expect(page.locator('astro-island')).not.toHaveAttribute('ssr', /.*/);
}

async function fill(page: Page, lang: 'de' | 'en', subject: string) {
  const t = texts[lang];
  await page.getByLabel(new RegExp(`^${t.name}`)).fill('Erika Mustermann');
  await page.getByLabel(new RegExp(`^${t.email}`)).fill('erika@example.org');
  await page.getByLabel(new RegExp(`^${t.phone}`)).fill('+49 211 987654');
  await page.getByLabel(new RegExp(`^${t.subject}`)).fill(subject);
  await page.getByLabel(new RegExp(`^${t.message}`)).fill('Guten Tag <b>Praxis</b>,\nbitte um Rückruf.');
}

for (const lang of ['de', 'en'] as const) {
  const t = texts[lang];

  test.describe(`contact form (${lang})`, () => {
    test('asks for the required fields first', async ({ page }) => {
      await open(page, lang, t.path);
      await page.getByRole('button', { name: t.submit }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: t.required });
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute('data-type', 'error');
      await expect(toast).toContainText(t.error);
    });

    test('sends the message to the practice, shows Sending..., then a success toast and an empty form', async ({ page }) => {
      const subject = `E2E ${lang} ${Date.now()}`;
      await open(page, lang, t.path);
      await fill(page, lang, subject);
      // Hold the request until the submitting state has been seen.
      let release!: () => void;
      const seen = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/contact', async (route) => {
        await seen;
        await route.continue();
      });
      await page.getByRole('button', { name: t.submit }).click();
      await expect(page.getByRole('button', { name: t.sending })).toBeDisabled();
      release();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: t.sent });
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute('data-type', 'success');
      await expect(page.getByLabel(new RegExp(`^${t.name}`))).toHaveValue('');
      await expect(page.getByLabel(new RegExp(`^${t.message}`))).toHaveValue('');
      await expect(page.getByRole('button', { name: t.submit })).toBeEnabled();

      const mail = (await readOutbox(outboxDir())).find((m) => m.subject === `Kontaktanfrage: ${subject}`);
      expect(mail, 'the practice email in the outbox').toBeDefined();
      expect(mail!.headers['reply-to']).toBe('erika@example.org');
      expect(mail!.html).toContain('Guten Tag &lt;b&gt;Praxis&lt;/b&gt;');
      // Shown as the practice dials it (src/lib/phone.ts).
      expect(mail!.text).toContain('Telefon: 0211 987654');
    });

    test('a transport failure shows its toast and keeps the values', async ({ page }) => {
      await open(page, lang, t.path);
      await fill(page, lang, 'offline');
      await page.route('**/api/contact', (route) => route.abort('internetdisconnected'));
      await page.getByRole('button', { name: t.submit }).click();
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: t.transport });
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute('data-type', 'error');
      await expect(page.getByLabel(new RegExp(`^${t.name}`))).toHaveValue('Erika Mustermann');
    });
  });
}

test.describe('contact form when the email cannot be sent', () => {
  let server: SecondServer;
  let url: string;

  test.beforeAll(async () => {
    // Sending to the practice fails for real.
    test.setTimeout(90_000);
    server = await startSecondServer('fail', { PRACTICE_EMAIL: 'praxis@mail.invalid' });
    url = server.url;
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  for (const lang of ['de', 'en'] as const) {
    const t = texts[lang];
    test(`shows the failure toast and keeps the values (${lang})`, async ({ page }) => {
      await open(page, lang, `${url}${t.path}`);
      await fill(page, lang, 'kein Versand');
      const answer = page.waitForResponse('**/api/contact');
      await page.getByRole('button', { name: t.submit }).click();
      expect((await answer).status()).toBe(502);
      const toast = page.locator('[data-sonner-toast]').filter({ hasText: t.failed });
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute('data-type', 'error');
      await expect(toast).toContainText(t.error);
      await expect(page.getByLabel(new RegExp(`^${t.name}`))).toHaveValue('Erika Mustermann');
      await expect(page.getByLabel(new RegExp(`^${t.subject}`))).toHaveValue('kein Versand');
      expect(await readOutbox(server.outbox)).toEqual([]);
    });
  }
});
