import { type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { bothLanguages, publicPages } from './support/public-pages';
import { axeBuilder } from './helpers/axe';

/** Every public page starts without a stored language and with a browser of the page's language. */
test.use({ locale: 'de-DE' });

async function openAs(page: Page, lang: 'de' | 'en', path: string) {
  // The browser's language must match the page, or detection would move it.
  await page.context().addInitScript((l) => localStorage.setItem('i18nextLng', l), lang);
  await page.goto(path);
  await expect(page).toHaveURL(path === '/' ? /\/$/ : new RegExp(`${path.replace(/\/$/, '')}/?$`));
}

/** Every toast has mounted and finished its entry transition (contrast mid-fade is meaningless). */
async function toastsSettled(page: Page) {
  await expect(page.locator('[data-sonner-toast]:not([data-mounted="true"])')).toHaveCount(0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

for (const p of bothLanguages) {
  test.describe(`${p.path}`, () => {
    test('is prebuilt with lang, title, h1, canonical and hreflang twins', async ({ page, baseURL }) => {
      await openAs(page, p.lang, p.path);
      await expect(page.locator('html')).toHaveAttribute('lang', p.lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
      await expect(page).toHaveTitle(/.+/);
      expect(await page.locator('meta[name=description]').getAttribute('content')).toBeTruthy();
      await expect(page.locator('link[rel=canonical]')).toHaveAttribute('href', `${baseURL}${p.path}`);
      const de = p.lang === 'de' ? p.path : p.twin;
      const en = p.lang === 'en' ? p.path : p.twin;
      await expect(page.locator('link[rel=alternate][hreflang=de]')).toHaveAttribute('href', `${baseURL}${de}`);
      await expect(page.locator('link[rel=alternate][hreflang=en]')).toHaveAttribute('href', `${baseURL}${en}`);
      await expect(page.locator('link[rel=alternate][hreflang=x-default]')).toHaveAttribute('href', `${baseURL}${de}`);
      // The footer: address, phone, email and the four links.
      const footer = page.getByRole('contentinfo');
      await expect(footer).toContainText('Königsallee 1');
      await expect(footer.getByRole('link', { name: '0211 123 456 0' })).toHaveAttribute('href', 'tel:+492111234560');
      await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
      for (const href of ['/impressum', '/datenschutz', '/install']) {
        await expect(footer.locator(`a[href="${p.lang === 'en' ? `/en${href}` : href}"]`)).toHaveCount(1);
      }
      await expect(footer.getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/auth');
    });

    test('makes no request that leaves the site and ships framework JavaScript only with the contact form', async ({ page, baseURL }) => {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      await openAs(page, p.lang, p.path);
      await page.waitForLoadState('networkidle');
      // Scroll through so lazy resources would load too.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page.waitForLoadState('networkidle');
      const origin = new URL(baseURL!).origin;
      const foreign = requests.filter((u) => !u.startsWith('data:') && new URL(u).origin !== origin);
      expect(foreign).toEqual([]);
      const framework = () => requests.filter((u) => /\.m?js(\?|$)/.test(u)).filter((u) => /client\.|react|contact-form/i.test(u));
      // None before an interaction; the contact form's island loads on the first one (client:interaction).
      expect(framework()).toEqual([]);
      if (p.island) {
        await page.locator('form').hover();
        await expect.poll(() => framework().length).toBeGreaterThan(0);
      }
    });

    test('has no accessibility violations (axe-core)', async ({ page }) => {
      await openAs(page, p.lang, p.path);
      if (p.island) await expect(page.getByRole('button', { name: /Nachricht senden|Send message/ })).toBeEnabled();
      const results = await axeBuilder(page).analyze();
      expect(results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }))).toEqual([]);
    });
  });
}

test('the mobile menu and a contact form with errors have no accessibility violations either', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await openAs(page, 'de', '/kontakt');
  await page.getByRole('button', { name: 'Menü öffnen' }).click();
  let results = await axeBuilder(page).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
  await page.keyboard.press('Escape');
  // The island's own error states are what this checks (its plain-form fallback is covered in contact.spec.ts).
  await page.locator('form').hover();
  await expect(page.locator('form[data-hydrated]')).toBeAttached({ timeout: 30_000 });
  await page.getByLabel(/^E-Mail/).fill('nope');
  await page.getByRole('button', { name: 'Nachricht senden' }).click();
  await expect(page.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeVisible();
  // The required-fields toast is open too (name and message are empty).
  await expect(page.getByText('Bitte füllen Sie alle Pflichtfelder aus.')).toBeVisible();
  await toastsSettled(page);
  results = await axeBuilder(page).analyze();
  expect(results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`) }))).toEqual([]);
  // And the success toast.
  await page.route('**/api/contact', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"success":true}' }));
  await page.getByLabel(/^Name/).fill('Erika');
  await page.getByLabel(/^E-Mail/).fill('erika@example.org');
  await page.getByLabel(/^Nachricht/).fill('Hallo');
  await page.getByRole('button', { name: 'Nachricht senden' }).click();
  await expect(page.getByText('Nachricht gesendet!')).toBeVisible();
  await toastsSettled(page);
  results = await axeBuilder(page).analyze();
  expect(results.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`) }))).toEqual([]);
});

test.describe('content', () => {
  test('German home page: hero, hours, flu news, services, appointment, emergency and prescriptions', async ({ page }) => {
    await openAs(page, 'de', '/');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Termin online buchen' }).first()).toHaveAttribute('href', '/termin');
    await expect(main.getByRole('link', { name: 'Anrufen: 0211 123 456 0' }).first()).toHaveAttribute('href', 'tel:+492111234560');
    const hours = main.getByRole('region', { name: 'Sprechzeiten' });
    await expect(hours).toContainText('Montag bis Freitag');
    await expect(hours).toContainText('08:20–13:40');
    await expect(hours).toContainText('nach Vereinbarung');
    await expect(main.getByRole('heading', { name: /Grippeschutzimpfung/ })).toBeVisible();
    const services = main.getByRole('region', { name: 'Unsere Leistungen' });
    for (const text of [
      'Vorsorgemedizin',
      'Check-up',
      'Laboruntersuchungen',
      'Reiseimpfungen (außer Gelbfieber)',
      'koronare Herzkrankheit, COPD, Asthma bronchiale und Diabetes mellitus Typ 2',
      'Allgemeinmedizin',
      'Ruhe-EKG, Langzeit-EKG und Belastungs-EKG',
      '24-Stunden-Blutdruckmessung',
      'Lungenfunktionsprüfung',
      'Ultraschall',
      'Akutsprechstunde',
      'Wiederholungsrezepte',
      'Überweisungen',
    ]) {
      await expect(services).toContainText(text);
    }
    await expect(main.getByRole('region', { name: 'Termin vereinbaren' }).getByRole('link', { name: 'Jetzt online buchen' })).toHaveAttribute('href', '/termin');
    const emergency = main.getByRole('region', { name: 'Notfälle und Akutversorgung' });
    await expect(emergency.getByRole('link', { name: /116117/ })).toHaveAttribute('href', 'tel:116117');
    await expect(emergency.getByRole('link', { name: /112/ })).toHaveAttribute('href', 'tel:112');
    const prescriptions = main.getByRole('region', { name: 'Rezepte und Überweisungen' });
    await expect(prescriptions).toContainText('online, telefonisch oder über den Briefkasten an der Praxistür');
    await expect(prescriptions.getByRole('link', { name: 'Folgerezept, Überweisung oder Rückruf online anfragen' })).toHaveAttribute('href', '/anfrage');
    await expect(prescriptions).toContainText('während der Sprechzeiten');
  });

  test('English home page carries the same content in English, with links to the English twins', async ({ page }) => {
    await openAs(page, 'en', '/en/');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Book an appointment online' }).first()).toHaveAttribute('href', '/en/termin');
    await expect(main.getByRole('region', { name: 'Opening hours' })).toContainText('Monday to Friday');
    await expect(main.getByRole('heading', { name: /Flu vaccination/ })).toBeVisible();
    await expect(main.getByRole('region', { name: 'Our services' })).toContainText('Resting, Holter and exercise ECG');
    await expect(main.getByRole('region', { name: 'Our services' })).toContainText('except yellow fever');
    await expect(main.getByRole('region', { name: 'Emergencies and acute care' })).toContainText('116117');
  });

  test('lab tests: the five tests, GOÄ billing, packages and a link to booking', async ({ page }) => {
    for (const [lang, path, names, billing, packages, book] of [
      ['de', '/laboruntersuchungen', ['Homocystein', 'Lipoprotein(a) – Lp(a)', 'Vitamin D', 'Vitamin B12', 'Testosteron beim Mann'], 'Abrechnung nach GOÄ', 'Kombinationspakete', '/termin'],
      ['en', '/en/laboruntersuchungen', ['Homocysteine', 'Lipoprotein(a) – Lp(a)', 'Vitamin D', 'Vitamin B12', 'Testosterone in men'], 'Billing under the GOÄ', 'Combination packages', '/en/termin'],
    ] as const) {
      await openAs(page, lang, path);
      const main = page.getByRole('main');
      for (const name of names) await expect(main.getByRole('heading', { level: 2, name: new RegExp(`^${name.replace(/[()]/g, '\\$&')}`) })).toBeVisible();
      await expect(main.getByRole('heading', { name: billing })).toBeVisible();
      await expect(main.getByRole('region', { name: packages }).getByRole('heading', { level: 3 })).toHaveCount(4);
      await expect(main.locator(`a[href="${book}"]`)).toHaveCount(1);
    }
  });

  test('team: doctor with education, career and philosophy, assistant doctor, three medical assistants, values', async ({ page }) => {
    await openAs(page, 'de', '/team');
    const main = page.getByRole('main');
    const doctor = main.getByRole('region', { name: 'Dr. med. Maria Muster' });
    for (const h of ['Ausbildung', 'Beruflicher Werdegang', 'Mein Verständnis von Medizin']) await expect(doctor.getByRole('heading', { name: h })).toBeVisible();
    await expect(main.getByRole('region', { name: 'Assistenzarzt' }).getByRole('heading', { level: 3 })).toHaveCount(1);
    const assistants = main.getByRole('region', { name: 'Medizinische Fachangestellte' });
    await expect(assistants.getByRole('heading', { level: 3 })).toHaveCount(3);
    await expect(assistants).toContainText('Praxismanagerin');
    await expect(main.getByRole('region', { name: 'Wofür wir stehen' }).getByRole('heading', { level: 3 })).toHaveCount(4);
    await openAs(page, 'en', '/en/team');
    await expect(page.getByRole('main').getByRole('region', { name: 'Medical assistants' })).toContainText('practice manager');
  });

  test('contact: address, phone, fax, email, opening hours, the form and additional services', async ({ page }) => {
    await openAs(page, 'de', '/kontakt');
    const details = page.getByRole('main').getByRole('region', { name: 'So erreichen Sie uns' });
    for (const text of ['Königsallee 1', '40212 Düsseldorf', '0211 123 456 0', '0211 123 456 9', 'praxis@hausarzt-duesseldorf.example', 'Montag bis Freitag', '08:20–13:40']) {
      await expect(details).toContainText(text);
    }
    await expect(page.getByRole('form', { name: 'Kontaktformular' })).toBeVisible();
    await expect(page.getByRole('main').getByRole('region', { name: 'Weitere Services' }).getByRole('heading', { level: 3 })).toHaveCount(4);
  });

  test('legal pages: § 5 DDG, Art. 13 GDPR with the processors, health data under Art. 9(2)(h), marked placeholders', async ({ page }) => {
    await openAs(page, 'de', '/impressum');
    let main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: /§ 5 Digitale-Dienste-Gesetz/ })).toBeVisible();
    for (const text of ['Dr. med. Maria Muster', 'Königsallee 1', 'Ärztekammer Nordrhein', 'Kassenärztliche Vereinigung Nordrhein', 'Berufshaftpflichtversicherung', 'PLATZHALTER']) {
      await expect(main).toContainText(text);
    }
    await openAs(page, 'de', '/datenschutz');
    main = page.getByRole('main');
    for (const text of ['Art. 13', 'Netlify', 'Neon', 'Postmark', 'Art. 9 Abs. 2 lit. h DSGVO', 'Art. 77', 'i18nextLng', 'Drittländer', 'PLATZHALTER']) {
      await expect(main).toContainText(text);
    }
    await openAs(page, 'en', '/en/datenschutz');
    main = page.getByRole('main');
    for (const text of ['Art. 13', 'Netlify', 'Neon', 'Postmark', 'Art. 9(2)(h) GDPR', 'PLACEHOLDER']) await expect(main).toContainText(text);
  });

  test('structured data describes the practice as Physician / MedicalClinic with address and opening hours', async ({ page }) => {
    for (const [lang, path, name] of [
      ['de', '/', 'Hausarztpraxis Düsseldorf'],
      ['en', '/en/kontakt', 'Family Practice Düsseldorf'],
    ] as const) {
      await openAs(page, lang, path);
      const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
      expect(data['@type']).toEqual(['Physician', 'MedicalClinic']);
      expect(data.name).toBe(name);
      expect(data.address).toMatchObject({ streetAddress: 'Königsallee 1', postalCode: '40212', addressLocality: 'Düsseldorf' });
      expect(data.openingHoursSpecification[0]).toMatchObject({ opens: '08:20', closes: '13:40' });
      expect(data.openingHoursSpecification[0].dayOfWeek).toHaveLength(5);
    }
  });

  test('the sitemap lists every public page in both languages with hreflang alternates', async ({ request, baseURL }) => {
    const res = await request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/xml/);
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    for (const p of publicPages) {
      expect(locs).toContain(`${baseURL}${p.de}`);
      expect(locs).toContain(`${baseURL}${p.en}`);
    }
    expect(locs.some((l) => /404|auth|admin/.test(l!))).toBe(false);
    expect(xml).toContain(`hreflang="en" href="${baseURL}/en/team"`);
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });
});
