/**
 * Which install instructions fit the visitor's device, and whether the site
 * already runs as an installed app. Shared by the install banner island and
 * the plain script of the /install page, so both decide alike.
 */
export type InstallPlatform = 'ios' | 'android' | 'desktop';

export function installPlatform(userAgent: string, maxTouchPoints = 0): InstallPlatform {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios';
  // iPadOS 13+ Safari asks for desktop sites and says "Macintosh"; only touch support gives it away.
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return 'ios';
  if (/Android/i.test(userAgent)) return 'android';
  return 'desktop';
}

interface StandaloneEnvironment {
  matchMedia?: (query: string) => { matches: boolean };
  /** iOS Safari adds a non-standard `standalone` flag. */
  navigator: object;
}

/** True when opened from the home screen: the display-mode media query, or iOS Safari's own flag. */
export function isStandalone(env: StandaloneEnvironment): boolean {
  return env.matchMedia?.('(display-mode: standalone)').matches === true || (env.navigator as { standalone?: unknown }).standalone === true;
}
