/**
 * Issue 14: the contact form is a plain HTML form that works without
 * JavaScript, and /kontakt loads no island JavaScript until the visitor
 * interacts with the form.
 */
import { expect, test } from '@playwright/test';
import path from 'node:path';
import { readOutbox } from '../helpers/eml';

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  for (const [lang, url, labels, heading, back] of [
    ['de', '/kontakt', { name: 'Name', email: 'E-Mail', message: 'Nachricht', submit: 'Nachricht senden' }, 'Nachricht gesendet', 'Zur Kontaktseite'],
    ['en', '/en/kontakt', { name: 'Name', email: 'Email', message: 'Message', submit: 'Send message' }, 'Message sent', 'To the contact page'],
  ] as const) {
    test(`the form posts and gets a readable result page (${lang})`, async ({ page }) => {
      const subject = `Ohne JavaScript ${lang} ${Date.now()}`;
      await page.goto(url);
      await page.getByLabel(new RegExp(`^${labels.name}`)).fill('Erika Mustermann');
      await page.getByLabel(new RegExp(`^${labels.email}`)).fill('erika@example.org');
      await page.getByLabel(/^(Betreff|Subject)/).fill(subject);
      await page.getByLabel(new RegExp(`^${labels.message}`)).fill('Bitte um Rückruf.');
      await page.getByRole('button', { name: labels.submit }).click();
      await expect(page).toHaveURL(/\/api\/contact$/);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(page.getByRole('link', { name: back })).toHaveAttribute('href', url);
      await expect
        .poll(async () => (await readOutbox(outboxDir())).filter((m) => m.subject.includes(subject)).length)
        .toBe(1);
    });
  }

  test('bad input: the result page names the fields, nothing is sent', async ({ page }) => {
    await page.goto('/en/kontakt');
    await page.getByLabel(/^Email/).fill('not an address');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Please check your entries');
    await expect(page.getByText('Name: Please enter your name.')).toBeVisible();
    await expect(page.getByText('Email: Please enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Message: Please enter a message.')).toBeVisible();
  });
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
