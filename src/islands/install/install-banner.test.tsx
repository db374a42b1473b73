/** The banner island in jsdom: prompt capture, install, dismissal storage. The decision table is in banner-decision.test.ts. */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dictionaries } from '../../i18n/i18n';
import { DISMISS_STORAGE_KEY } from './banner-decision';
import { BANNER_TEXT_KEYS, type BannerTexts } from './banner-texts';
import InstallBanner from './install-banner';

const texts = Object.fromEntries(BANNER_TEXT_KEYS.map((k) => [k, dictionaries.de[k]])) as BannerTexts;
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1';
const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

const banner = () => screen.queryByRole('complementary', { name: 'Unsere Praxis-App' });

describe('install banner', () => {
  it('shows the install button only after the browser offers a prompt, and a dismissed prompt hides it for 7 days', async () => {
    render(<InstallBanner lang="de" texts={texts} />);
    expect(banner()).toBeNull();

    const prompt = vi.fn(async () => {});
    const event = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
    });
    act(() => {
      window.dispatchEvent(event);
    });
    expect(event.defaultPrevented).toBe(true);
    fireEvent.click(await screen.findByRole('button', { name: 'App installieren' }));
    expect(prompt).toHaveBeenCalledOnce();
    await waitFor(() => expect(banner()).toBeNull());
    expect(Number(localStorage.getItem(DISMISS_STORAGE_KEY))).toBeGreaterThan(Date.now() - 5_000);
  });

  describe('on an iPhone', () => {
    const asIPhone = () => vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);

    it('shows the manual steps and remembers the dismissal', async () => {
      asIPhone();
      render(<InstallBanner lang="de" texts={texts} />);
      expect(await screen.findByText('Wählen Sie „Zum Home-Bildschirm“.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'App installieren' })).toBeNull();
      expect(screen.getByRole('link', { name: 'Mehr über die App' }).getAttribute('href')).toBe('/install');
      fireEvent.click(screen.getByRole('button', { name: 'Hinweis ausblenden' }));
      expect(banner()).toBeNull();
      expect(localStorage.getItem(DISMISS_STORAGE_KEY)).toMatch(/^\d+$/);
    });

    it('stays hidden 3 days after a dismissal and links to the English page in English', async () => {
      asIPhone();
      localStorage.setItem(DISMISS_STORAGE_KEY, String(Date.now() - 3 * DAY));
      const { unmount } = render(<InstallBanner lang="de" texts={texts} />);
      await act(async () => {});
      expect(banner()).toBeNull();
      unmount();
      localStorage.setItem(DISMISS_STORAGE_KEY, String(Date.now() - 8 * DAY));
      render(<InstallBanner lang="en" texts={texts} />);
      expect((await screen.findByRole('link', { name: 'Mehr über die App' })).getAttribute('href')).toBe('/en/install');
    });

    it('stays hidden when running as an installed app', async () => {
      asIPhone();
      Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
      try {
        render(<InstallBanner lang="de" texts={texts} />);
        await act(async () => {});
        expect(banner()).toBeNull();
      } finally {
        delete (navigator as { standalone?: boolean }).standalone;
      }
    });
  });
});
