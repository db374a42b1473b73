/** axe with the WCAG 2.2 A and AA rules, once the page's animations have settled (contrast mid-fade is meaningless). */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

export async function expectNoAxeViolations(page: Page, label: string) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  const results = await new AxeBuilder({ page }).withTags(WCAG22_AA).analyze();
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
