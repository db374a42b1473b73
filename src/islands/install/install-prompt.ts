/**
 * Captures the browser's install prompt (`beforeinstallprompt`) as soon as the
 * booking page's script runs: the event may come before the banner's React
 * code is loaded (it is loaded only once the banner is to show, see
 * install-banner.ts), and it is not repeated. No React here.
 */

/** Chrome's and Edge's install prompt event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let captured: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault(); // our banner replaces the browser's own mini-infobar
    captured = event as BeforeInstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    captured = null;
    notify();
  });
}

/** The prompt the browser offered, if any and not used yet. */
export const capturedPrompt = () => captured;

/** Hands the prompt out once (a prompt can be shown only once). */
export function takePrompt(): BeforeInstallPromptEvent | null {
  const prompt = captured;
  captured = null;
  return prompt;
}

/** Calls `listener` whenever a prompt is offered or the app got installed; returns the unsubscribe. */
export function onPromptChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
