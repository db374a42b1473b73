/**
 * The install banner of the booking page (SPEC.md §2 "Install banner and
 * page"). Hidden in standalone mode and for 7 days after dismissal;
 * iPhone/iPad visitors get the manual steps (Safari offers no prompt), others
 * an install button once the browser has offered a prompt.
 *
 * It is fixed to the bottom of the viewport rather than placed in the flow:
 * it can only decide after hydration, and appearing in the flow would push
 * the wizard down (a layout shift).
 */
import { useEffect, useRef, useState } from 'react';
import type { BannerTexts } from './banner-texts';
import { localizedPath, type Lang } from '../../i18n/languages';
import { installPlatform, isStandalone, type InstallPlatform } from '../../lib/install-platform';
import { bannerVariant, DISMISS_STORAGE_KEY, parseDismissedAt, type BannerVariant } from './banner-decision';

/** Chrome's and Edge's install prompt event (not in the DOM typings). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

// Listened for as soon as this module runs: the browser may offer the prompt
// before React has rendered, and the event is not repeated.
let capturedPrompt: BeforeInstallPromptEvent | null = null;
const promptListeners = new Set<() => void>();
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault(); // our banner replaces the browser's own mini-infobar
    capturedPrompt = event as BeforeInstallPromptEvent;
    promptListeners.forEach((notify) => notify());
  });
  window.addEventListener('appinstalled', () => {
    capturedPrompt = null;
    promptListeners.forEach((notify) => notify());
  });
}

function readDismissedAt(): number | null {
  try {
    return parseDismissedAt(localStorage.getItem(DISMISS_STORAGE_KEY));
  } catch {
    return null; // storage blocked: the banner shows, dismissal lasts for this page
  }
}

export interface InstallBannerProps {
  lang: Lang;
  texts: BannerTexts;
}

export default function InstallBanner({ lang, texts }: InstallBannerProps) {
  const t = (key: keyof BannerTexts) => texts[key];
  // Nothing is known before the browser runs this: the server renders no banner.
  const [env, setEnv] = useState<{ standalone: boolean; platform: InstallPlatform } | null>(null);
  const [canPrompt, setCanPrompt] = useState(false);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);

  useEffect(() => {
    setEnv({ standalone: isStandalone(window), platform: installPlatform(navigator.userAgent, navigator.maxTouchPoints) });
    setDismissedAt(readDismissedAt());
    const update = () => setCanPrompt(capturedPrompt !== null);
    update();
    promptListeners.add(update);
    return () => {
      promptListeners.delete(update);
    };
  }, []);

  const variant: BannerVariant = env ? bannerVariant({ ...env, dismissedAt, now: Date.now(), canPrompt }) : 'hidden';
  const bannerRef = useRef<HTMLElement>(null);
  // While shown, the page gets room below its end as tall as the banner, so
  // nothing (the last type card, the Next button) stays hidden behind it.
  useEffect(() => {
    const banner = bannerRef.current;
    if (variant === 'hidden' || !banner) return;
    const reserve = () => (document.body.style.paddingBottom = `${banner.offsetHeight}px`);
    reserve();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reserve);
    observer?.observe(banner);
    return () => {
      observer?.disconnect();
      document.body.style.paddingBottom = '';
    };
  }, [variant]);
  if (variant === 'hidden') return null;

  const dismiss = () => {
    const now = Date.now();
    try {
      localStorage.setItem(DISMISS_STORAGE_KEY, String(now));
    } catch {
      // storage blocked: hidden for this page only
    }
    setDismissedAt(now);
  };

  const install = async () => {
    const prompt = capturedPrompt;
    if (!prompt) return;
    capturedPrompt = null; // a prompt can be shown only once
    await prompt.prompt();
    const { outcome } = await prompt.userChoice;
    if (outcome === 'dismissed') dismiss();
    else setCanPrompt(false);
  };

  return (
    <aside ref={bannerRef} aria-labelledby="install-banner-title" className="fixed inset-x-0 bottom-0 z-30 p-3 sm:p-4">
      <div className="mx-auto flex max-w-xl items-start gap-3 rounded-lg border border-brand-100 bg-white p-4 shadow-lg">
        <img src="/icons/icon-192.png" alt="" width={40} height={40} className="mt-0.5 shrink-0 rounded-lg" />
        <div className="min-w-0 flex-1">
          <h2 id="install-banner-title" className="font-semibold text-slate-900">
            {t('install.banner.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{t('install.banner.text')}</p>
          {variant === 'ios-steps' && (
            // Folded: open, the steps would cover most of a phone's screen on the first visit.
            <details className="mt-2">
              <summary className="cursor-pointer py-1 text-sm font-medium text-slate-900">{t('install.banner.iosIntro')}</summary>
              <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm text-slate-700">
                <li>
                  {t('install.banner.iosShare')} <ShareIcon />
                </li>
                <li>{t('install.banner.iosAddToHome')}</li>
                <li>{t('install.banner.iosAdd')}</li>
              </ol>
            </details>
          )}
          <div className="mt-3 flex flex-wrap items-center gap-4">
            {variant === 'install-button' && (
              <button
                type="button"
                onClick={() => void install()}
                className="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
              >
                {t('install.banner.install')}
              </button>
            )}
            <a href={localizedPath('/install', lang)} className="text-sm font-medium text-brand-700 underline">
              {t('install.banner.more')}
            </a>
          </div>
        </div>
        <button
          type="button"
          onClick={dismiss}
          aria-label={t('install.banner.dismiss')}
          className="-m-1 shrink-0 rounded-md p-1 text-slate-600 hover:bg-slate-100"
        >
          <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>
    </aside>
  );
}

/** Safari's share icon: a square with an arrow pointing up. */
function ShareIcon() {
  return (
    <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" className="inline align-text-bottom">
      <path d="M12 3v12M8 7l4-4 4 4M6 11H5v10h14V11h-1" />
    </svg>
  );
}
