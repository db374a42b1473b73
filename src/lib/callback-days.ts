/**
 * The working days (Monday–Friday) a call-back may be asked for
 * (docs/decisions/036-patient-requests.md): the next five after `today`
 * (Berlin). Today itself is not offered: the practice works through
 * requests, it does not watch for them. Apart from the request schema so the
 * form's small script offers the same days without bundling zod.
 */
import { addDaysToDate, berlinToday, weekdayOf } from './berlin-time';

export const CALLBACK_WORKING_DAYS = 5;

export function callbackDays(today: string = berlinToday()): string[] {
  const days: string[] = [];
  for (let d = addDaysToDate(today, 1); days.length < CALLBACK_WORKING_DAYS; d = addDaysToDate(d, 1)) {
    const weekday = weekdayOf(d);
    if (weekday >= 1 && weekday <= 5) days.push(d);
  }
  return days;
}
