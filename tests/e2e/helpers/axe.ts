/** axe with the WCAG 2.2 A and AA rules, once the page's animations have settled (contrast mid-fade is meaningless). */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/**
 * axe for these pages: run in the page itself (legacy mode: no blank page
 * opened to merge the frames' results; the pages have no cross-origin
 * frames, and same-origin ones are still checked), reporting violations
 * only (passes and the like are not carried back). Together a quarter less
 * of the suite's time on the pages axe checks most.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] });
}

export async function expectNoAxeViolations(page: Page, label: string) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const results = await axeBuilder(page).withTags(WCAG22_AA).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A public page loaded, its islands hydrated (except the contact form, which waits for an interaction), animations done. */
export async function settled(page: Page) {
  await page.waitForLoadState('load');
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="interaction"])').length === 0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

/** A public page settled, then axe. */
export async function axe(page: Page, label: string) {
  await settled(page);
  await expectNoAxeViolations(page, label);
}
