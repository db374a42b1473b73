import { describe, expect, it } from 'vitest';
import { installPlatform, isStandalone } from '../../lib/install-platform';
import { bannerVariant, parseDismissedAt, type BannerInput } from './banner-decision';

const now = Date.UTC(2026, 10, 23, 10, 0);
const day = 24 * 60 * 60 * 1000;
const base: BannerInput = { standalone: false, platform: 'android', dismissedAt: null, now, canPrompt: true };

describe('bannerVariant', () => {
  it.each<[string, Partial<BannerInput>, ReturnType<typeof bannerVariant>]>([
    ['an install button when the browser offers a prompt', {}, 'install-button'],
    ['nothing without a prompt outside iOS (no way to install from here)', { canPrompt: false }, 'hidden'],
    ['nothing on the desktop without a prompt', { platform: 'desktop', canPrompt: false }, 'hidden'],
    ['an install button on the desktop with a prompt', { platform: 'desktop' }, 'install-button'],
    ['manual steps on iPhone/iPad, which never offer a prompt', { platform: 'ios', canPrompt: false }, 'ios-steps'],
    ['nothing in standalone mode', { standalone: true }, 'hidden'],
    ['nothing in standalone mode on iOS', { standalone: true, platform: 'ios' }, 'hidden'],
    ['nothing right after dismissal', { dismissedAt: now }, 'hidden'],
    ['nothing 6 days 23 hours after dismissal', { dismissedAt: now - 7 * day + 60 * 60 * 1000 }, 'hidden'],
    ['again exactly 7 days after dismissal', { dismissedAt: now - 7 * day }, 'install-button'],
    ['again on iOS 8 days after dismissal', { platform: 'ios', dismissedAt: now - 8 * day }, 'ios-steps'],
    ['nothing on iOS 1 day after dismissal', { platform: 'ios', dismissedAt: now - day }, 'hidden'],
    ['a dismissal time in the future is ignored', { dismissedAt: now + 30 * day }, 'install-button'],
  ])('%s', (_name, input, expected) => {
    expect(bannerVariant({ ...base, ...input })).toBe(expected);
  });
});

describe('parseDismissedAt', () => {
  it.each<[string | null, number | null]>([
    [null, null],
    ['', null],
    ['abc', null],
    ['-5', null],
    ['1790000000000', 1790000000000],
  ])('%j → %j', (raw, expected) => {
    expect(parseDismissedAt(raw)).toBe(expected);
  });
});

describe('installPlatform', () => {
  it.each<[string, string, number, ReturnType<typeof installPlatform>]>([
    ['iPhone Safari', 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1', 5, 'ios'],
    ['iPad (old UA)', 'Mozilla/5.0 (iPad; CPU OS 12_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148', 5, 'ios'],
    ['iPadOS desktop-class UA with touch', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15', 5, 'ios'],
    ['a Mac without touch', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/18.0 Safari/605.1.15', 0, 'desktop'],
    ['Android Chrome', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36', 5, 'android'],
    ['Windows Edge', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36 Edg/131.0', 0, 'desktop'],
  ])('%s', (_name, ua, touch, expected) => {
    expect(installPlatform(ua, touch)).toBe(expected);
  });
});

describe('isStandalone', () => {
  const media = (matches: boolean) => () => ({ matches });
  it('follows the display-mode media query', () => {
    expect(isStandalone({ matchMedia: media(true), navigator: {} })).toBe(true);
    expect(isStandalone({ matchMedia: media(false), navigator: {} })).toBe(false);
  });
  it("honours iOS Safari's navigator.standalone", () => {
    expect(isStandalone({ matchMedia: media(false), navigator: { standalone: true } })).toBe(true);
  });
});
