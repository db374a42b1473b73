/**
 * The contact form is a plain HTML form that works without
 * JavaScript, and /kontakt loads no island JavaScript until the visitor
 * interacts with the form. Its answer is the site's own page
 * (header and footer) with the outcome, and keeps what was typed.
 */
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import path from 'node:path';
import { readOutbox } from '../helpers/eml';
import { axe } from './helpers/axe';

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');

const pages = {
  de: {
    url: '/kontakt',
    labels: { name: 'Name', email: 'E-Mail', phone: 'Telefon', subject: 'Betreff', message: 'Nachricht', submit: 'Nachricht senden' },
    heading: 'Kontakt',
    invalid: 'Bitte prüfen Sie Ihre Angaben',
    errors: ['E-Mail: Bitte geben Sie eine gültige E-Mail-Adresse ein.', 'Nachricht: Bitte geben Sie eine Nachricht ein.'],
    sent: 'Nachricht gesendet',
  },
  en: {
    url: '/en/kontakt',
    labels: { name: 'Name', email: 'Email', phone: 'Phone', subject: 'Subject', message: 'Message', submit: 'Send message' },
    heading: 'Contact',
    invalid: 'Please check your entries',
    errors: ['Email: Please enter a valid email address.', 'Message: Please enter a message.'],
    sent: 'Message sent',
  },
} as const;

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const lang of ['de', 'en'] as const) {
    const p = pages[lang];
    const field = (page: Page, label: string) => page.getByRole('main').getByLabel(new RegExp(`^${label}`));

    test(`a round trip: the answer is the site's page, the typed values come back with the errors, corrected it is sent (${lang})`, async ({ page }) => {
      const subject = `Ohne JavaScript ${lang} ${Date.now()}`;
      await page.goto(p.url);
      await field(page, p.labels.name).fill('Erika Mustermann');
      await field(page, p.labels.email).fill('erika@');
      await field(page, p.labels.phone).fill('0211 1234567');
      await field(page, p.labels.subject).fill(subject);
      await page.getByRole('button', { name: p.labels.submit }).click();

      await expect(page).toHaveURL(/\/api\/contact#contact-result$/);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      // The site's own page: header, footer, its heading; the outcome above the form.
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.heading);
      const notice = page.getByRole('region', { name: p.invalid });
      await expect(notice.getByRole('listitem')).toHaveText([...p.errors]);
      // Every typed value is still there; the fields in error say so.
      await expect(field(page, p.labels.name)).toHaveValue('Erika Mustermann');
      await expect(field(page, p.labels.email)).toHaveValue('erika@');
      await expect(field(page, p.labels.email)).toHaveAttribute('aria-invalid', 'true');
      await expect(field(page, p.labels.phone)).toHaveValue('0211 1234567');
      await expect(field(page, p.labels.subject)).toHaveValue(subject);
      await expect(field(page, p.labels.message)).toHaveAttribute('aria-invalid', 'true');

      await field(page, p.labels.email).fill('erika@example.org');
      await field(page, p.labels.message).fill('Bitte um Rückruf.\nDanke!');
      await page.getByRole('button', { name: p.labels.submit }).click();
      await expect(page.getByRole('region', { name: p.sent })).toBeVisible();
      await expect(page.getByRole('contentinfo')).toBeVisible();
      // Sent: the form is empty again.
      await expect(field(page, p.labels.name)).toHaveValue('');
      const sent = async () => (await readOutbox(outboxDir())).filter((m) => m.subject.includes(subject));
      await expect.poll(async () => (await sent()).length).toBe(1);
      expect((await sent())[0]!.text).toContain('Bitte um Rückruf.\nDanke!');
    });
  }
});

test.describe('the no-JavaScript answers meet WCAG 2.2 AA', () => {
  for (const lang of ['de', 'en'] as const) {
    test(`bad input and sent (${lang})`, async ({ page }) => {
      // The browser's own post (the island is not loaded: no interaction), then axe on the answer.
      const post = async (values: Record<string, string>) => {
        await page.goto(pages[lang].url);
        await page.locator('form[action^="/api/contact"]').evaluate((form: HTMLFormElement, v) => {
          for (const [name, value] of Object.entries(v)) (form.elements.namedItem(name) as HTMLInputElement).value = value;
          form.submit();
        }, values);
        await page.waitForURL(/\/api\/contact/);
      };
      await post({ name: 'Erika', email: 'nope' });
      await expect(page.getByRole('region', { name: pages[lang].invalid })).toBeVisible();
      await axe(page, `${lang} answer: bad input`);
      // With the honeypot filled: the same "sent" answer without using up the allowance that every
      // e2e message shares (one client address, five messages an hour).
      await post({ name: 'Erika', email: 'erika@example.org', message: `axe ${Date.now()}`, website: 'x' });
      await expect(page.getByRole('region', { name: pages[lang].sent })).toBeVisible();
      await axe(page, `${lang} answer: sent`);
    });
  }
});

test.describe('with JavaScript', () => {
  test('/kontakt loads under 3 KB of JavaScript until the form is touched, then the island takes over', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/kontakt');
    await page.waitForLoadState('networkidle');
    // No script file of the island (React, the form, its texts) before an interaction:
    // only the service worker registration; the rest is small inline script.
    expect(scripts.filter((s) => s.startsWith('/_astro/'))).toEqual([]);
    const inline = await page.evaluate(() =>
      [...document.querySelectorAll('script:not([src])')]
        .filter((s) => !s.getAttribute('type') || s.getAttribute('type') === 'module')
        .reduce((n, s) => n + (s.textContent ?? '').length, 0),
    );
    expect(inline).toBeLessThan(12_000); // raw bytes; the bench prints the gzip figure (< 3 KB)
    await expect(page.locator('astro-island')).toHaveAttribute('ssr', '');

    // Typing straight away: the first keystrokes arrive before the island, and are kept.
    const name = page.getByLabel(/^Name/);
    await name.click();
    await name.pressSequentially('Erika', { delay: 5 });
    await expect(page.locator('astro-island')).not.toHaveAttribute('ssr', /.*/);
    await expect(name).toHaveValue('Erika');
    expect(scripts.length).toBeGreaterThan(1);
    // The island now validates on the page instead of posting.
    await page.getByRole('button', { name: 'Nachricht senden' }).click();
    await expect(page.getByText('Bitte füllen Sie alle Pflichtfelder aus.')).toBeVisible();
    await expect(page).toHaveURL(/\/kontakt$/);
    await expect(name).toHaveValue('Erika');
  });
});
