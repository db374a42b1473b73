/** The back office on a phone: what "fits" means for a page. */
import { expect, type Page } from '@playwright/test';

export const PHONE = { width: 360, height: 640 };

/** Nothing scrolls sideways, and every control of the page lies within the screen (tables scroll inside their own box above 640 px only). */
export async function expectFitsScreen(page: Page, where: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${where} is ${scrollWidth} px wide`).toBeLessThanOrEqual(innerWidth);
  const outside = await page.getByRole('main').evaluate((main) =>
    [...main.querySelectorAll('button, a[href], input, select, textarea, td, th')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && (box.left < 0 || box.right > window.innerWidth + 0.5);
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
  expect(outside, where).toEqual([]);
}
