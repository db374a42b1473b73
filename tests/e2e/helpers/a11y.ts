/** axe with the WCAG 2.2 AA rules, once a page has settled: the public pages' check. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG22 = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** Loaded, islands hydrated (except the contact form, which waits for an interaction), animations done. */
export async function settled(page: Page) {
  await page.waitForLoadState('load');
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="interaction"])').length === 0);
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

export async function axe(page: Page, label: string) {
  await settled(page);
  const results = await new AxeBuilder({ page }).withTags(WCAG22).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
