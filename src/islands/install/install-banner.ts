/**
 * The install banner of the booking page (docs/decisions/007). Hidden in standalone mode and for 7 days after dismissal;
 * iPhone/iPad visitors get the manual steps (Safari offers no prompt), others
 * an install button once the browser has offered a prompt.
 *
 * Plain DOM, no React (nothing of a framework runs when the booking
 * page loads; a browser that offers its prompt at once would otherwise load
 * React for the banner). The page renders an empty container with the texts;
 * `bootInstallBanner` decides (banner-decision.ts) and fills it. Its
 * `data-install-banner` says what was decided: "hidden" (for now) or "shown".
 *
 * It sits in the page's flow below the wizard: fixed to the
 * bottom of the viewport it covered the first card's "Auswählen" button on a
 * phone until the patient scrolled, and an overlay always covers whatever
 * scrolls under it. Below the wizard it covers nothing, and appearing there
 * after load moves nothing the patient is looking at.
 */
import { localizedPath, type Lang } from '../../i18n/languages';
import { installPlatform, isStandalone } from '../../lib/install-platform';
import { bannerVariant, DISMISS_STORAGE_KEY, parseDismissedAt, type BannerVariant } from './banner-decision';
import type { BannerTexts } from './banner-texts';
import { capturedPrompt, onPromptChange, takePrompt } from './install-prompt';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);

/** Safari's share icon: a square with an arrow pointing up. */
const SHARE_ICON =
  '<svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" class="inline align-text-bottom"><path d="M12 3v12M8 7l4-4 4 4M6 11H5v10h14V11h-1"></path></svg>';

/** The banner's markup for a shown variant. */
export function installBannerHtml(variant: Exclude<BannerVariant, 'hidden'>, lang: Lang, texts: BannerTexts): string {
  const t = (key: keyof BannerTexts) => escape(texts[key]);
  // Folded: open, the steps would cover most of a phone's screen on the first visit.
  const iosSteps =
    variant === 'ios-steps'
      ? `<details class="mt-2"><summary class="cursor-pointer py-1 text-sm font-medium text-slate-900">${t('install.banner.iosIntro')}</summary>` +
        `<ol class="mt-1 list-decimal space-y-1 pl-5 text-sm text-slate-700"><li>${t('install.banner.iosShare')} ${SHARE_ICON}</li>` +
        `<li>${t('install.banner.iosAddToHome')}</li><li>${t('install.banner.iosAdd')}</li></ol></details>`
      : '';
  const installButton =
    variant === 'install-button'
      ? `<button type="button" data-action="install" class="rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800">${t('install.banner.install')}</button>`
      : '';
  return (
    `<aside aria-labelledby="install-banner-title" class="mt-10">` +
    `<div class="mx-auto flex max-w-xl items-start gap-3 rounded-lg border border-brand-100 bg-brand-50 p-4">` +
    `<img src="/icons/icon-192.png" alt="" width="40" height="40" class="mt-0.5 shrink-0 rounded-lg">` +
    `<div class="min-w-0 flex-1"><h2 id="install-banner-title" class="font-semibold text-slate-900">${t('install.banner.title')}</h2>` +
    `<p class="mt-1 text-sm text-slate-700">${t('install.banner.text')}</p>${iosSteps}` +
    `<div class="mt-3 flex flex-wrap items-center gap-4">${installButton}` +
    `<a href="${escape(localizedPath('/install', lang))}" class="text-sm font-medium text-brand-700 underline">${t('install.banner.more')}</a></div></div>` +
    `<button type="button" data-action="dismiss" aria-label="${t('install.banner.dismiss')}" class="-m-1 shrink-0 rounded-md p-1 text-slate-600 hover:bg-slate-100">` +
    `<svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2"><path d="M6 6l12 12M18 6L6 18"></path></svg></button>` +
    `</div></aside>`
  );
}

function readDismissedAt(): number | null {
  try {
    return parseDismissedAt(localStorage.getItem(DISMISS_STORAGE_KEY));
  } catch {
    return null; // storage blocked: the banner shows, dismissal lasts for this page
  }
}

/** Decides, shows and runs the banner in `container` (data-lang, data-texts); returns a stop function. */
export function bootInstallBanner(container: HTMLElement): () => void {
  const lang: Lang = container.dataset.lang === 'en' ? 'en' : 'de';
  const texts = JSON.parse(container.dataset.texts ?? '{}') as BannerTexts;
  const standalone = isStandalone(window);
  const platform = installPlatform(navigator.userAgent, navigator.maxTouchPoints);
  let dismissedAt = readDismissedAt();
  let shown: BannerVariant = 'hidden';

  const update = () => {
    const variant = bannerVariant({ standalone, platform, dismissedAt, now: Date.now(), canPrompt: capturedPrompt() !== null });
    container.dataset.installBanner = variant === 'hidden' ? 'hidden' : 'shown';
    if (variant === shown) return;
    shown = variant;
    if (variant === 'hidden') container.replaceChildren();
    else container.innerHTML = installBannerHtml(variant, lang, texts);
  };

  const dismiss = () => {
    dismissedAt = Date.now();
    try {
      localStorage.setItem(DISMISS_STORAGE_KEY, String(dismissedAt));
    } catch {
      // storage blocked: hidden for this page only
    }
    update();
  };
  const install = async () => {
    const prompt = takePrompt(); // a prompt can be shown only once
    if (!prompt) return;
    await prompt.prompt();
    const { outcome } = await prompt.userChoice;
    if (outcome === 'dismissed') dismiss();
    else update();
  };
  const onClick = (event: Event) => {
    const action = (event.target as Element).closest<HTMLElement>('[data-action]')?.dataset.action;
    if (action === 'dismiss') dismiss();
    if (action === 'install') void install();
  };

  container.addEventListener('click', onClick);
  const stopListening = onPromptChange(update);
  update();
  return () => {
    stopListening();
    container.removeEventListener('click', onClick);
    container.replaceChildren();
  };
}
