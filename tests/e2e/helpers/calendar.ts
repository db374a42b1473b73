/**
 * Turning a calendar (the wizard's or the staff slot picker's) to a date's
 * month as a person does: read the month it shows, press next or previous
 * until it is there. Reading the caption each time, not counting presses,
 * keeps this right while the calendar still opens on its first free date.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { locales, monthCaption } from '../../helpers/month-caption';


/** Months since year 0 of a caption, or of a yyyy-MM-dd date. */
function ordinal(caption: string, lang: 'de' | 'en'): number {
  const names = Array.from({ length: 12 }, (_, i) =>
    new Intl.DateTimeFormat(locales[lang], { month: 'long', timeZone: 'UTC' }).format(Date.UTC(2000, i, 15)),
  );
  const [name, year] = [caption.slice(0, caption.lastIndexOf(' ')), Number(caption.slice(caption.lastIndexOf(' ') + 1))];
  const month = names.indexOf(name);
  if (month < 0 || !year) throw new Error(`not a month caption: ${caption}`);
  return year * 12 + month;
}

export async function showMonthOf(scope: Page | Locator, date: string, lang: 'de' | 'en' = 'de'): Promise<void> {
  const grid = scope.getByRole('grid');
  const want = ordinal(monthCaption(date, lang), lang);
  for (let turns = 0; ; turns++) {
    const shown = (await grid.getAttribute('aria-label')) ?? '';
    const at = ordinal(shown, lang);
    if (at === want) return;
    if (turns >= 24) throw new Error(`the calendar stays on ${shown}, wanted ${monthCaption(date, lang)}`);
    const direction = at < want ? /nächsten Monat|next month/i : /vorherigen Monat|previous month/i;
    try {
      // Short: while the calendar still moves to its first free date on its
      // own, the button may turn disabled under the press (the month it
      // reached is the last one) ...
      await scope.getByRole('button', { name: direction }).click({ timeout: 2_000 });
    } catch {
      // ... then the month shown has changed meanwhile: look again.
      await expect(grid).not.toHaveAttribute('aria-label', shown, { timeout: 5_000 }).catch(() => undefined);
      continue;
    }
    await expect(grid).not.toHaveAttribute('aria-label', shown);
  }
}

/**
 * Turns the calendar to `date`'s month and presses that date, as a person
 * does who looks again when the calendar moved meanwhile: a picker whose
 * type just changed opens on the new type's first free date once its
 * search answers, which on a busy machine can come after the turn.
 */
export async function clickDate(scope: Page | Locator, date: string, dayName: RegExp, lang: 'de' | 'en' = 'de'): Promise<void> {
  await expect(async () => {
    await showMonthOf(scope, date, lang);
    await scope.getByRole('button', { name: dayName }).click({ timeout: 3_000 });
  }).toPass({ timeout: 45_000 });
}
