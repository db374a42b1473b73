/**
 * The e2e `test`: Playwright's, with every browser context on the suite's
 * clock (./clock.ts). Specs import `test` and `expect` from here; contexts a
 * spec opens itself (browser.newContext, browser.newPage) are shifted too.
 * Only `Date` moves: the page's timers and animations run in real time.
 */
import { test as base } from '@playwright/test';
import { shiftClock } from '../../../scripts/shifted-clock.mjs';
import { clockOffsetMs } from './clock';

export const test = base.extend({
  browser: [
    async ({ browser }, use) => {
      if (clockOffsetMs !== 0) {
        const newContext = browser.newContext.bind(browser);
        browser.newContext = async (options) => {
          const context = await newContext(options);
          await context.addInitScript(`(${shiftClock.toString()})(globalThis, ${clockOffsetMs});`);
          return context;
        };
      }
      await use(browser);
    },
    { scope: 'worker' },
  ],
});

export { expect } from '@playwright/test';
