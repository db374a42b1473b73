/**
 * Whether the install banner shows, and how (dismissal suppresses it
 * for 7 days; docs/decisions/007). Pure, so it is tested
 * without a browser.
 */
import type { InstallPlatform } from '../../lib/install-platform';

export const DISMISS_STORAGE_KEY = 'installBannerDismissedAt';
export const DISMISS_DAYS = 7;
const DISMISS_MS = DISMISS_DAYS * 24 * 60 * 60 * 1000;

/** 'ios-steps': manual steps (Safari has no install prompt); 'install-button': the browser's prompt. */
export type BannerVariant = 'ios-steps' | 'install-button' | 'hidden';

export interface BannerInput {
  standalone: boolean;
  platform: InstallPlatform;
  /** When the visitor last dismissed the banner (ms since epoch), or null. */
  dismissedAt: number | null;
  now: number;
  /** The browser offered an install prompt (a captured beforeinstallprompt event). */
  canPrompt: boolean;
}

export function bannerVariant({ standalone, platform, dismissedAt, now, canPrompt }: BannerInput): BannerVariant {
  if (standalone) return 'hidden';
  // A timestamp in the future (clock changed) does not count, or it could hide the banner for years.
  if (dismissedAt !== null && dismissedAt <= now && now - dismissedAt < DISMISS_MS) return 'hidden';
  if (platform === 'ios') return 'ios-steps';
  return canPrompt ? 'install-button' : 'hidden';
}

/** The stored dismissal time, or null when absent or unreadable. */
export function parseDismissedAt(raw: string | null): number | null {
  if (raw === null || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}
