// @vitest-environment jsdom
/** The banner in jsdom: prompt capture, install, dismissal storage. The decision table is in banner-decision.test.ts. */
import { fireEvent, screen, waitFor } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dictionaries } from '../../i18n/i18n';
import { DISMISS_STORAGE_KEY } from './banner-decision';
import { BANNER_TEXT_KEYS, type BannerTexts } from './banner-texts';
import { bootInstallBanner } from './install-banner';

const texts = Object.fromEntries(BANNER_TEXT_KEYS.map((k) => [k, dictionaries.de[k]])) as BannerTexts;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1';
const DAY = 24 * 60 * 60 * 1000;

let stops: Array<() => void> = [];
/** The page's container, as booking-page.astro renders it, booted. */
function boot(lang: 'de' | 'en' = 'de') {
  const container = document.createElement('div');
  container.dataset.lang = lang;
  container.dataset.texts = JSON.stringify(texts);
  document.body.append(container);
  stops.push(bootInstallBanner(container));
  return container;
}

afterEach(() => {
  stops.forEach((stop) => stop());
  stops = [];
  document.body.replaceChildren();
  localStorage.clear();
  vi.restoreAllMocks();
});

const banner = () => screen.queryByRole('complementary', { name: 'Unsere Praxis-App' });

describe('install banner', () => {
  it('shows the install button only after the browser offers a prompt, and a dismissed prompt hides it for 7 days', async () => {
    const container = boot();
    expect(banner()).toBeNull();
    expect(container.dataset.installBanner).toBe('hidden');

    const prompt = vi.fn(async () => {});
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
    });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(container.dataset.installBanner).toBe('shown');
    expect(screen.queryByText('So installieren Sie die App auf dem iPhone oder iPad:')).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'App installieren' }));
    expect(prompt).toHaveBeenCalledOnce();
    await waitFor(() => expect(banner()).toBeNull());
    expect(Number(localStorage.getItem(DISMISS_STORAGE_KEY))).toBeGreaterThan(Date.now() - 5_000);
  });

  it('an accepted prompt hides the banner; installing withdraws a prompt offered later', async () => {
    boot();
    const accepted = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: vi.fn(async () => {}),
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    window.dispatchEvent(accepted);
    fireEvent.click(screen.getByRole('button', { name: 'App installieren' }));
    await waitFor(() => expect(banner()).toBeNull());
    expect(localStorage.getItem(DISMISS_STORAGE_KEY)).toBeNull();

    window.dispatchEvent(Object.assign(new Event('beforeinstallprompt', { cancelable: true }), { prompt: vi.fn(), userChoice: new Promise(() => {}) }));
    expect(banner()).not.toBeNull();
    window.dispatchEvent(new Event('appinstalled'));
    expect(banner()).toBeNull();
  });

  describe('on an iPhone', () => {
    const asIPhone = () => vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);

    it('shows the manual steps, folded, and remembers the dismissal', () => {
      asIPhone();
      const container = boot();
      expect(container.dataset.installBanner).toBe('shown');
      const steps = container.querySelector('details')!;
      expect(steps.open).toBe(false);
      expect(steps.querySelector('summary')!.textContent).toBe('So installieren Sie die App auf dem iPhone oder iPad:');
      expect([...steps.querySelectorAll('li')].map((li) => li.textContent!.trim())).toEqual([
        'Tippen Sie in Safari auf das Teilen-Symbol.',
        'Wählen Sie „Zum Home-Bildschirm“.',
        'Tippen Sie auf „Hinzufügen“.',
      ]);
      expect(screen.queryByRole('button', { name: 'App installieren' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Mehr über die App' }).getAttribute('href')).toBe('/install');
      fireEvent.click(screen.getByRole('button', { name: 'Hinweis ausblenden' }));
      expect(banner()).toBeNull();
      expect(container.dataset.installBanner).toBe('hidden');
      expect(localStorage.getItem(DISMISS_STORAGE_KEY)).toMatch(/^\d+$/);
    });

    it('stays hidden 3 days after a dismissal and links to the English page in English', () => {
      asIPhone();
      localStorage.setItem(DISMISS_STORAGE_KEY, String(Date.now() - 3 * DAY));
      boot();
      expect(banner()).toBeNull();
      document.body.replaceChildren();
      localStorage.setItem(DISMISS_STORAGE_KEY, String(Date.now() - 8 * DAY));
      boot('en');
      expect(screen.getByRole('link', { name: 'Mehr über die App' }).getAttribute('href')).toBe('/en/install');
    });

    it('stays hidden when running as an installed app', () => {
      asIPhone();
      Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
      try {
        boot();
        expect(banner()).toBeNull();
      } finally {
        delete (navigator as { standalone?: boolean }).standalone;
      }
    });

    it('escapes its texts', () => {
      asIPhone();
      const container = document.createElement('div');
      container.dataset.texts = JSON.stringify({ ...texts, 'install.banner.title': '<b>App</b>' });
      document.body.append(container);
      stops.push(bootInstallBanner(container));
      expect(container.querySelector('b')).toBeNull();
      expect(screen.getByRole('heading').textContent).toBe('<b>App</b>');
    });
  });
});
