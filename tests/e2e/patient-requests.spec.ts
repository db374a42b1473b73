/**
 * Patient requests (docs/decisions/036-patient-requests.md) as patients and
 * reception use them: each kind in German and English on a 375 px phone
 * (receipt email, status page), one kind without JavaScript (the answer
 * page keeps what was typed; received, it is a GET page after a 303), the
 * page's weight and its fit at 320 px; and
 * reception working the queue at 1280 px and 360 px (axe clean), the
 * settings that switch a kind off, and the printout.
 */
import path from 'node:path';
import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { readOutbox, type ParsedEml } from '../helpers/eml';
import { hydrated, signInAsAdmin } from './helpers/admin';
import { axe, expectNoAxeViolations } from './helpers/axe';

const outboxDir = () => path.join(process.env.E2E_DATA_DIR!, 'outbox');
const PHONE = { width: 375, height: 800 };
const run = Date.now().toString(36);

const texts = {
  de: {
    url: '/anfrage',
    kinds: { prescription: 'Folgerezept', referral: 'Überweisung', callback: 'Rückruf' },
    medication: 'Name des Medikaments',
    strength: 'Stärke (z. B. 5 mg)',
    statutory: 'Gesetzlich versichert',
    card: /^E-Rezept auf die Gesundheitskarte/,
    cardRead: /^Meine Gesundheitskarte wurde/,
    specialty: /^Fachrichtung/,
    reason: /^Grund/,
    day: /^Tag/,
    morning: 'Vormittags',
    topic: /^Worum geht es\? \(kurz\)/,
    firstName: /^Vorname/,
    lastName: /^Nachname/,
    birthDate: /^Geburtsdatum/,
    birth: '12.08.1964',
    email: /^E-Mail/,
    phone: /^Telefon/,
    consent: /^Ich bin einverstanden/,
    submit: 'Anfrage senden',
    sent: 'Anfrage eingegangen',
    invalid: 'Bitte prüfen Sie Ihre Angaben',
    statusTitle: 'Stand Ihrer Anfrage',
    statusNew: 'Eingegangen, noch nicht bearbeitet',
    statusPath: /\/anfrage\/status\?token=/,
  },
  en: {
    url: '/en/request',
    kinds: { prescription: 'Repeat prescription', referral: 'Referral', callback: 'Call-back' },
    medication: 'Name of the medication',
    strength: 'Strength (e.g. 5 mg)',
    statutory: 'Statutory (gesetzlich)',
    card: /^E-prescription on your health card/,
    cardRead: /^My health card has already been read/,
    specialty: /^Specialty/,
    reason: /^Reason/,
    day: /^Day/,
    morning: 'Morning',
    topic: /^What is it about\?/,
    firstName: /^First name/,
    lastName: /^Last name/,
    birthDate: /^Date of birth/,
    birth: '12/08/1964',
    email: /^Email/,
    phone: /^Phone/,
    consent: /^I agree/,
    submit: 'Send request',
    sent: 'Request received',
    invalid: 'Please check your entries',
    statusTitle: 'Your request',
    statusNew: 'Received, not yet dealt with',
    statusPath: /\/en\/request\/status\?token=/,
  },
} as const;

type Lang = keyof typeof texts;
type Kind = keyof (typeof texts)['de']['kinds'];

const main = (page: Page) => page.getByRole('main');

async function mailTo(address: string): Promise<ParsedEml> {
  let found: ParsedEml | undefined;
  await expect.poll(async () => (found = (await readOutbox(outboxDir())).find((m) => m.headers.to === address)) !== undefined).toBe(true);
  return found!;
}

/** Fills the kind's own section as a patient would. */
async function fillKind(page: Page, lang: Lang, kind: Kind) {
  const t = texts[lang];
  const m = main(page);
  await m.getByRole('radio', { name: t.kinds[kind] }).check();
  if (kind === 'prescription') {
    await m.getByLabel(t.medication).first().fill('Ramipril');
    await m.getByLabel(t.strength).first().fill('5 mg');
    await m.getByRole('radio', { name: t.statutory, exact: true }).check();
    await m.getByRole('radio', { name: t.card }).check();
    await m.getByRole('checkbox', { name: t.cardRead }).check();
  } else if (kind === 'referral') {
    await m.getByLabel(t.specialty).fill('Orthopädie');
    await m.getByLabel(t.reason).fill('Knieschmerzen');
  } else {
    // The script offers the next five working days as a list.
    const day = m.getByRole('combobox', { name: t.day });
    await day.selectOption({ index: 1 });
    await m.getByRole('radio', { name: t.morning }).check();
    await m.getByLabel(t.topic).fill('Blutwerte besprechen');
  }
}

async function fillPerson(page: Page, lang: Lang, email: string) {
  const t = texts[lang];
  const m = main(page);
  await m.getByLabel(t.firstName).fill('Erika');
  await m.getByLabel(t.lastName).fill('Mustermann');
  await m.getByLabel(t.birthDate).fill(t.birth);
  await m.getByLabel(t.email).fill(email);
  await m.getByLabel(t.phone).fill('0211 5550123');
  await m.getByRole('checkbox', { name: t.consent }).check();
}

test.describe('a patient asks on a phone', () => {
  test.use({ viewport: PHONE });

  for (const lang of ['de', 'en'] as const) {
    for (const kind of ['prescription', 'referral', 'callback'] as const) {
      test(`${kind} in ${lang}: the receipt names the kind, its link shows the status`, async ({ page }) => {
        const t = texts[lang];
        const email = `${kind}-${lang}-${run}@example.org`;
        await page.goto(t.url);
        await fillKind(page, lang, kind);
        await fillPerson(page, lang, email);
        await main(page).getByRole('button', { name: t.submit }).click();
        const receipt = main(page).getByRole('region', { name: t.sent });
        await expect(receipt).toBeVisible();
        const reference = /([2-9A-HJKMNP-Z]{6})/.exec((await receipt.textContent()) ?? '')![1]!;
        // The form is gone; no page left the phone's width.
        await expect(main(page).getByRole('form')).toBeHidden();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

        const mail = await mailTo(email);
        expect(mail.subject).toContain(t.kinds[kind]);
        expect(mail.subject).toContain(reference);
        for (const asked of ['Ramipril', 'Orthopädie', 'Knieschmerzen', 'Blutwerte']) expect(mail.text).not.toContain(asked);
        const link = /(https?:\/\/\S+token=[A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
        expect(link).toMatch(t.statusPath);
        await page.goto(new URL(link).pathname + new URL(link).search);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(t.statusTitle);
        await expect(main(page).getByRole('definition').filter({ hasText: reference })).toBeVisible();
        await expect(main(page)).toContainText(t.kinds[kind]);
        await expect(main(page)).toContainText(t.statusNew);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      });
    }

    test(`${lang}: errors show at their fields, listed above the form; the page is axe clean and fits 320 px`, async ({ page }) => {
      const t = texts[lang];
      await page.goto(t.url);
      await axe(page, `${lang} request form`);
      await main(page).getByRole('radio', { name: t.kinds.prescription }).check();
      await main(page).getByRole('radio', { name: t.statutory, exact: true }).check();
      await main(page).getByRole('button', { name: t.submit }).click();
      const summary = main(page).getByRole('region', { name: t.invalid });
      await expect(summary).toBeVisible();
      await expect(main(page).getByLabel(t.medication).first()).toHaveAttribute('aria-invalid', 'true');
      await expect(main(page).getByLabel(t.firstName)).toHaveAttribute('aria-invalid', 'true');
      await expectNoAxeViolations(page, `${lang} request form with errors`);
      await page.setViewportSize({ width: 320, height: 640 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    });
  }

  test('the request page loads no framework: only its own small script', async ({ page }) => {
    const scripts: Array<{ path: string; bytes: number }> = [];
    page.on('response', async (r) => {
      if (r.request().resourceType() === 'script') scripts.push({ path: new URL(r.url()).pathname, bytes: (await r.body()).length });
    });
    await page.goto('/anfrage');
    await page.waitForLoadState('networkidle');
    const own = scripts.filter((s) => s.path.startsWith('/_astro/'));
    expect(own.map((s) => s.path)).toContainEqual(expect.stringMatching(/^\/_astro\/request-page\.astro_astro_type_script/));
    // No island runtime, no React: the page's script and the small modules it shares with others.
    expect(own.filter((s) => /client|react|astro-island/i.test(s.path))).toEqual([]);
    // Raw bytes; the bench prints the gzip figure against the 10 KB budget.
    expect(own.reduce((n, s) => n + s.bytes, 0)).toBeLessThan(14_000);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: PHONE });

  test('a referral: the answer is the site’s page with the errors and what was typed; corrected, it is received', async ({ page }) => {
    const t = texts.de;
    const email = `nojs-${run}@example.org`;
    await page.goto(t.url);
    // The static page sends a browser without JavaScript on to the form the server renders.
    await expect(page).toHaveURL(/\/anfrage\/formular$/);
    await main(page).getByRole('radio', { name: t.kinds.referral }).check();
    // The referral's section shows by CSS alone; the others stay hidden.
    await expect(main(page).getByLabel(t.specialty)).toBeVisible();
    await expect(main(page).getByLabel(t.topic)).toBeHidden();
    await main(page).getByLabel(t.specialty).fill('Orthopädie');
    await main(page).getByLabel(t.firstName).fill('Erika');
    await main(page).getByLabel(t.email).fill(email);
    await main(page).getByRole('button', { name: t.submit }).click();

    await expect(page).toHaveURL(/\/api\/requests#request-result$/);
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rezept, Überweisung oder Rückruf');
    const notice = main(page).getByRole('region', { name: t.invalid });
    await expect(notice).toContainText('Grund, kurz: Bitte nennen Sie kurz den Grund.');
    await expect(notice).toContainText('Einverständnis: Bitte stimmen Sie der Speicherung für diese Anfrage zu.');
    await expect(main(page).getByRole('radio', { name: t.kinds.referral })).toBeChecked();
    await expect(main(page).getByLabel(t.specialty)).toHaveValue('Orthopädie');
    await expect(main(page).getByLabel(t.firstName)).toHaveValue('Erika');
    await expect(main(page).getByLabel(t.reason)).toHaveAttribute('aria-invalid', 'true');

    await main(page).getByLabel(t.reason).fill('Knieschmerzen');
    await main(page).getByLabel(t.lastName).fill('Mustermann');
    await main(page).getByLabel(t.birthDate).fill(t.birth);
    await main(page).getByRole('checkbox', { name: t.consent }).check();
    await main(page).getByRole('button', { name: t.submit }).click();
    // Received: 303 to the form page showing the reference (a reload would not send it again).
    await expect(page).toHaveURL(/\/anfrage\/formular\?sent=[2-9A-HJKMNP-Z]{6}&tag=[0-9a-f]{32}#request-result$/);
    const sent = main(page).getByRole('region', { name: t.sent });
    await expect(sent).toBeVisible();
    await expect(main(page).getByLabel(t.firstName)).toHaveValue('');
    expect((await mailTo(email)).subject).toContain('Überweisung');
  });
});

test.describe('the no-JavaScript answers meet WCAG 2.2 AA', () => {
  for (const lang of ['de', 'en'] as const) {
    test(`bad input and received (${lang})`, async ({ page }) => {
      // The browser's own post (form.submit() bypasses the page's script), then axe on the answer.
      const post = async (values: Record<string, string>) => {
        await page.goto(texts[lang].url);
        await page.locator('form[action^="/api/requests"]').evaluate((form: HTMLFormElement, v) => {
          for (const [name, value] of Object.entries(v)) {
            const field = form.elements.namedItem(name);
            if (field instanceof RadioNodeList) for (const radio of field) (radio as HTMLInputElement).checked = (radio as HTMLInputElement).value === value;
            else if (field instanceof HTMLInputElement && field.type === 'checkbox') field.checked = value === 'on';
            else (field as HTMLInputElement).value = value;
          }
          form.submit();
        }, values);
        // Refused: answered in place; received: 303 to the form page showing the reference.
        await page.waitForURL(/\/api\/requests|\/(anfrage\/formular|en\/request\/form)\?sent=/);
      };
      await post({ kind: 'callback', first_name: 'Erika', email: 'nope' });
      await expect(page.getByRole('region', { name: texts[lang].invalid })).toBeVisible();
      await axe(page, `${lang} answer: bad input`);
      // The honeypot filled: the same answer as received, and nothing stored.
      await post({ kind: 'referral', first_name: 'Erika', last_name: 'Axe', birth_date: texts[lang].birth, email: `axe-${lang}-${run}@example.org`, consent: 'on', specialty: 'Orthopädie', reason: 'Knie', website: 'x' });
      await expect(page.getByRole('region', { name: texts[lang].sent })).toBeVisible();
      await axe(page, `${lang} answer: received`);
    });
  }
});

test.describe('reception works the queue', () => {
  /** Requests as the API takes them, each from the same test client (the e2e server raises the per-client limit). */
  async function ask(page: Page, body: Record<string, unknown>) {
    const res = await page.request.post('/api/requests', {
      data: { first_name: 'Erika', last_name: 'Queue', birth_date: '1964-08-12', consent: true, language: 'de', ...body },
    });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { reference: string }).reference;
  }

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 740 },
  ]) {
    test(`at ${viewport.width} px: open, copy, take on, decline only with a message, close with one; axe clean`, async ({ page, context }) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.setViewportSize(viewport);
      const email = `queue-${viewport.width}-${run}@example.org`;
      const reference = await ask(page, {
        kind: 'prescription',
        email,
        insurance: 'statutory',
        delivery: 'pickup',
        medications: [{ name: `Ramipril${viewport.width}`, strength: '5 mg', pack: 'N3' }],
      });
      await signInAsAdmin(page);
      if (viewport.width > 640) {
        // The navigation and the dashboard count what waits.
        await expect(page.getByRole('link', { name: /^Anfragen/ }).locator('[data-request-count]')).toBeVisible();
        await expect(page.getByRole('link', { name: 'Offene Anfragen' })).toBeVisible();
      }
      await page.goto('/admin/anfragen');
      await hydrated(page);
      const row = page.getByRole('row').filter({ hasText: reference });
      await expect(row).toContainText('Folgerezept');
      await expect(row).toContainText('Queue, Erika');
      await expect(row).toContainText('neu');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await expectNoAxeViolations(page, `queue at ${viewport.width} px`);

      await row.getByRole('button', { name: `Anfrage ${reference} öffnen` }).click();
      const dialog = page.getByRole('dialog', { name: `Folgerezept ${reference}` });
      await expect(dialog).toContainText(`Ramipril${viewport.width} · 5 mg · N3`);
      await expect(dialog).toContainText('12.08.1964');
      await expectNoAxeViolations(page, `request dialog at ${viewport.width} px`);
      await dialog.getByRole('button', { name: 'Medikament 1 kopieren' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`Ramipril${viewport.width} 5 mg N3`);

      await dialog.getByRole('button', { name: 'In Bearbeitung nehmen' }).click();
      await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Status: in Bearbeitung' })).toBeVisible();
      await expect(dialog).toContainText('Status: in Bearbeitung');
      await dialog.getByRole('button', { name: 'Ablehnen' }).click();
      await expect(dialog.getByLabel('Nachricht an den Patienten')).toHaveAttribute('aria-invalid', 'true');
      await dialog.getByLabel('Nachricht an den Patienten').fill('Liegt ab morgen zur Abholung bereit.');
      await dialog.getByRole('button', { name: 'Erledigt' }).click();
      await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Status: erledigt' })).toBeVisible();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: reference })).toHaveCount(0);

      const mail = await (async () => {
        let done: ParsedEml | undefined;
        await expect
          .poll(async () => (done = (await readOutbox(outboxDir())).find((m) => m.headers.to === email && m.subject.startsWith('Ihre Anfrage ist erledigt'))) !== undefined)
          .toBe(true);
        return done!;
      })();
      expect(mail.text).toContain('Liegt ab morgen zur Abholung bereit.');
      expect(mail.text).not.toContain('Ramipril');

      // The closed ones under their filter.
      await page.getByLabel('Status').selectOption({ label: 'Erledigt' });
      await expect(page.getByRole('row').filter({ hasText: reference })).toContainText('erledigt');
    });
  }

  test('the settings switch a kind off: the form no longer offers it; the printout is confidential and numbered', async ({ page, browser }) => {
    await ask(page, { kind: 'referral', email: `print-${run}@example.org`, specialty: 'Orthopädie', reason: 'Knie' });
    await signInAsAdmin(page);
    await page.goto('/admin/anfragen');
    await hydrated(page);
    await page.getByText('Einstellungen für Online-Anfragen').click();
    await page.getByRole('checkbox', { name: 'Rückruf' }).uncheck();
    await page.getByLabel('Hinweis über dem Formular (Deutsch)').fill('Bestellungen bis 11 Uhr liegen am nächsten Werktag bereit.');
    await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await expect(page.getByText('Einstellungen gespeichert')).toBeVisible();

    const patient = await browser.newPage();
    await patient.goto('/anfrage');
    await expect(patient.getByRole('complementary', { name: 'Hinweis der Praxis' })).toContainText('Bestellungen bis 11 Uhr');
    await expect(patient.getByRole('main').getByRole('radio', { name: 'Rückruf' })).toBeHidden();
    await expect(patient.getByRole('main').getByRole('radio', { name: 'Überweisung' })).toBeVisible();
    await patient.close();
    // Without JavaScript the static page cannot ask: the form the server renders says the same.
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto('/anfrage');
    await expect(plain).toHaveURL(/\/anfrage\/formular$/);
    await expect(plain.getByRole('complementary', { name: 'Hinweis der Praxis' })).toContainText('Bestellungen bis 11 Uhr liegen am nächsten Werktag bereit.');
    await expect(plain.getByRole('main').getByRole('radio', { name: 'Rückruf' })).toHaveCount(0);
    await expect(plain.getByRole('main').getByRole('radio', { name: 'Überweisung' })).toBeVisible();
    await expect(plain.getByRole('main').getByRole('radio', { name: 'Folgerezept' })).toBeVisible();
    await noScript.close();

    await page.emulateMedia({ media: 'print' });
    await expect(page.getByText('Vertraulich – enthält Patientendaten').first()).toBeVisible();
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    const document = await getDocumentProxy(new Uint8Array(pdf));
    const { text: pages } = await extractText(document, { mergePages: false });
    for (const [i, text] of pages.entries()) {
      expect(text, `sheet ${i + 1}`).toContain('Vertraulich – enthält Patientendaten');
      expect(text, `sheet ${i + 1}`).toContain(`Seite ${i + 1} von ${pages.length}`);
    }
    expect(pages.join(' ')).toContain('Orthopädie');
    await page.emulateMedia({ media: 'screen' });

    // Back on (the panel is still open), so the form offers every kind again for the other specs.
    await page.getByRole('checkbox', { name: 'Rückruf' }).check();
    await page.getByLabel('Hinweis über dem Formular (Deutsch)').fill('');
    await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await expect.poll(async () => (await (await page.request.get('/api/requests')).json()) as unknown).toEqual({ kinds: { prescription: true, referral: true, callback: true }, notice_de: null, notice_en: null, sms: true });
  });
});
