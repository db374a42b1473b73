/**
 * The installable app: service worker, offline pages, the install
 * banner on the booking page and the /install page.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { devices, type Page } from '@playwright/test';
import { expect, test } from './helpers/test';
import { chooseSlot, de, fillDetails, mailTo, uniqueEmail } from './helpers/wizard';

const iPhone = devices['iPhone 13'];
const asIPhone = { userAgent: iPhone.userAgent, viewport: iPhone.viewport, isMobile: true, hasTouch: true };
const DAY = 24 * 60 * 60 * 1000;

/** Resolves once the page's service worker is active, i.e. every precached file is stored. */
async function serviceWorkerReady(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
}

/** Waits until the page's script has decided about the install banner (install-banner.ts). */
async function bannerDecided(page: Page) {
  await page.locator('[data-install-banner="hidden"], [data-install-banner="shown"]').waitFor({ state: 'attached' });
}

/** Pretends to run as an installed app: the display-mode media query matches. */
async function emulateStandalone(page: Page) {
  await page.addInitScript(() => {
    const original = window.matchMedia.bind(window);
    window.matchMedia = (query: string) =>
      query.includes('display-mode: standalone')
        ? ({
            matches: true,
            media: query,
            onchange: null,
            addEventListener() {},
            removeEventListener() {},
            addListener() {},
            removeListener() {},
            dispatchEvent: () => false,
          } as MediaQueryList)
        : original(query);
  });
}

// The other specs block the worker (playwright.config.ts); here it runs as in a patient's browser.
test.use({ serviceWorkers: 'allow' });

test.describe('service worker', () => {
  test('takes control, opens the public pages offline and never serves the API', async ({ page, context }) => {
    await page.goto('/');
    await serviceWorkerReady(page);
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);

    // Online, the wizard loads the consultation types through the worker.
    await page.goto('/termin');
    await expect(page.getByRole('button', { name: /^Auswählen: / }).first()).toBeVisible();

    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Termin online buchen' })).toBeVisible();
    for (const [path, heading] of [
      ['/', 'Ihre Hausarztpraxis in Düsseldorf'],
      ['/install', 'App installieren'],
      ['/en/install', 'Install the app'],
      ['/en/', 'Your family practice in Düsseldorf'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }

    const offlineApi = await page.evaluate(() =>
      fetch('/api/appointment-types').then(
        (res) => `answered ${res.status}`,
        () => 'network error',
      ),
    );
    expect(offlineApi).toBe('network error');
    const cachedPaths = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) {
        for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      }
      return paths;
    });
    expect(cachedPaths).toContain('/install');
    expect(cachedPaths.filter((p) => p.startsWith('/api') || p.startsWith('/admin'))).toEqual([]);
  });

  test('a patient books through the worker: times are fresh and the booking reaches the server', async ({ page }) => {
    await page.goto('/termin');
    await serviceWorkerReady(page);
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null)).toMatch(/\/sw\.js$/);

    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/availability') asked.push(r.url());
    });
    const email = uniqueEmail('through-worker');
    const { date, time } = await chooseSlot(page, de, 'Check-up');
    await fillDetails(page, de, email);
    await page.getByRole('button', { name: de.submit }).click();
    await expect(page.getByRole('heading', { name: 'Ihr Termin ist gebucht!' })).toBeVisible();
    await mailTo(email);

    // The wizard loaded the date's times through the worker before the booking; the same
    // request through it again no longer offers the taken time (Check-up has one seat).
    const url = asked.findLast((u) => new URL(u).searchParams.get('from')! <= date && date <= new URL(u).searchParams.get('to')!);
    expect(url, 'the wizard asked for the chosen date through the worker').toBeDefined();
    const times = await page.evaluate(
      async ([u, day]) => {
        const { days } = (await (await fetch(u)).json()) as { days: Array<{ date: string; times: string[] }> };
        return days.find((d) => d.date === day)?.times;
      },
      [url!, date] as const,
    );
    expect(times ?? []).not.toContain(time);
  });

  test('updates itself: a new deploy’s worker takes over the open page without waiting', async ({ page }) => {
    await page.goto('/');
    await serviceWorkerReady(page);
    await page.reload();
    const before = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
    expect(before).toMatch(/\/sw\.js$/);

    // A deploy changes sw.js; the browser finds it on its next update check.
    const swFile = path.resolve('dist/sw.js');
    const original = await readFile(swFile, 'utf8');
    try {
      await writeFile(swFile, `${original}\n// deploy ${Date.now()}\n`);
      const tookOver = await page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            // The bound only ends a run in which the new worker never takes over (it installs first: precache downloads).
            const timer = setTimeout(() => resolve('still the old worker'), 30_000);
            navigator.serviceWorker.addEventListener('controllerchange', () => {
              clearTimeout(timer);
              resolve('new worker in control');
            });
            void navigator.serviceWorker.getRegistration().then((r) => r?.update());
          }),
      );
      // Without skipWaiting/clientsClaim the new worker would wait until every tab closed.
      expect(tookOver).toBe('new worker in control');
      // Nothing is left waiting, and the new worker finishes activating on its own.
      await expect
        .poll(() =>
          page.evaluate(async () => {
            const r = await navigator.serviceWorker.getRegistration();
            return { waiting: r?.waiting ?? null, active: r?.active?.state };
          }),
        )
        .toEqual({ waiting: null, active: 'activated' });
    } finally {
      await writeFile(swFile, original);
    }
  });

  test('the manifest names the app, its icons, theme colour and start URL', async ({ page, request }) => {
    await page.goto('/install');
    const href = await page.locator('link[rel=manifest]').getAttribute('href');
    const manifest = (await (await request.get(href!)).json()) as Record<string, unknown> & { icons: Array<{ src: string; sizes: string; purpose?: string }> };
    expect(manifest).toMatchObject({ name: 'Hausarztpraxis Düsseldorf', start_url: '/', display: 'standalone', theme_color: '#0f766e', lang: 'de' });
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const res = await request.get(icon.src);
      expect(res.headers()['content-type'], icon.src).toBe('image/png');
    }
  });
});

test.describe('install banner, desktop browser', () => {
  test('appears with an install button only once the browser offers a prompt', async ({ page }) => {
    await page.goto('/termin');
    await bannerDecided(page);
    const banner = page.getByRole('complementary', { name: 'Unsere Praxis-App' });
    await expect(banner).toBeHidden();

    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true });
      Object.assign(event, {
        prompt: async () => {
          (window as unknown as { prompted: boolean }).prompted = true;
        },
        userChoice: Promise.resolve({ outcome: 'accepted' }),
      });
      window.dispatchEvent(event);
    });
    await expect(banner).toBeVisible();
    await expect(banner).not.toContainText('Zum Home-Bildschirm');
    await banner.getByRole('button', { name: 'App installieren' }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
  });
});

test.describe('on an iPhone', () => {
  test.use(asIPhone);

  test('the banner shows the manual steps, and its dismissal lasts 7 days', async ({ page }) => {
    await page.goto('/termin');
    const banner = page.getByRole('complementary', { name: 'Unsere Praxis-App' });
    await expect(banner).toBeVisible();
    // Folded at first (open, the steps covered the type cards); one tap opens them.
    await expect(banner.getByRole('listitem')).toHaveCount(0);
    await banner.getByText('So installieren Sie die App auf dem iPhone oder iPad:').click();
    await expect(banner.getByRole('listitem')).toHaveText([
      /Teilen-Symbol/,
      'Wählen Sie „Zum Home-Bildschirm“.',
      'Tippen Sie auf „Hinzufügen“.',
    ]);
    await expect(banner.getByRole('button', { name: 'App installieren' })).toHaveCount(0);
    await expect(banner.getByRole('link', { name: 'Mehr über die App' })).toHaveAttribute('href', '/install');

    await banner.getByRole('button', { name: 'Hinweis ausblenden' }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await bannerDecided(page);
    await expect(banner).toBeHidden();

    // Six days later it is still suppressed; eight days later it is back.
    await page.evaluate((ago) => localStorage.setItem('installBannerDismissedAt', String(Date.now() - ago)), 6 * DAY);
    await page.reload();
    await bannerDecided(page);
    await expect(banner).toBeHidden();
    await page.evaluate((ago) => localStorage.setItem('installBannerDismissedAt', String(Date.now() - ago)), 8 * DAY);
    await page.reload();
    await expect(banner).toBeVisible();
  });

  test('the English banner speaks English', async ({ page }) => {
    await page.goto('/en/termin');
    const banner = page.getByRole('complementary', { name: 'Our practice app' });
    await expect(banner).toContainText('Choose “Add to Home Screen”.');
    await expect(banner.getByRole('link', { name: 'More about the app' })).toHaveAttribute('href', '/en/install');
  });

  test('the install page opens the iPhone steps', async ({ page }) => {
    await page.goto('/install');
    const ios = page.locator('details').filter({ hasText: 'iPhone und iPad (Safari)' });
    await expect(ios).toHaveAttribute('open', '');
    await expect(ios.getByText('Ihr Gerät')).toBeVisible();
    await expect(page.getByText('Wählen Sie „Zum Home-Bildschirm“.')).toBeVisible();
    await expect(page.getByText('Tippen Sie oben rechts auf „Hinzufügen“.')).toBeVisible();
    // The other platforms stay closed.
    await expect(page.getByText('Tippen Sie oben rechts auf das Menü (drei Punkte).')).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Die App ist bereits installiert' })).toBeHidden();
  });

  test('installed: no banner, and the install page says so', async ({ page }) => {
    await emulateStandalone(page);
    await page.goto('/termin');
    await bannerDecided(page);
    await expect(page.getByRole('complementary', { name: 'Unsere Praxis-App' })).toBeHidden();
    await page.goto('/en/install');
    await expect(page.getByRole('heading', { name: 'The app is already installed' })).toBeVisible();
  });
});

test.describe('install page', () => {
  test('lists the benefits, opens the desktop steps, links to the contact page and ships no framework', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/install');
    await expect(page).toHaveTitle(/App installieren/);
    const benefits = page.getByRole('region', { name: 'Ihre Vorteile' });
    for (const title of ['Schneller Zugriff', 'Auch offline verfügbar', 'Keine Sorgen um Speicherplatz', 'Automatische Updates']) {
      await expect(benefits.getByRole('heading', { name: title })).toBeVisible();
    }
    const desktop = page.locator('details').filter({ hasText: 'Computer (Chrome oder Edge)' });
    await expect(desktop).toHaveAttribute('open', '');
    await expect(page.getByText('Öffnen Sie diese Seite in Safari.')).toBeHidden();
    await page.getByText('iPhone und iPad (Safari)').click();
    await expect(page.getByText('Öffnen Sie diese Seite in Safari.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Kontakt aufnehmen' })).toHaveAttribute('href', '/kontakt');
    await expect(page.getByRole('heading', { name: 'Die App ist bereits installiert' })).toBeHidden();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((p) => /client\.|react|jsx-runtime/i.test(p))).toEqual([]);

    await page.goto('/en/install');
    await expect(page.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/en/kontakt');
  });
});
