/**
 * What a refusal tells the calendar. A booking refused because its time
 * was taken meanwhile (409 slot-unavailable) answers the free times of its
 * date and the next days as the database sees them (`availability`): the
 * calendar shows those instead of the month it loaded before, which the
 * CDN may have kept a little longer (docs/decisions/044).
 */
export interface FreshDays {
  from: string;
  to: string;
  days: Array<{ date: string; times: string[] }>;
}

/** A 409's `availability`, when it has that shape. */
export function freshDaysOf(problem: unknown): FreshDays | null {
  const a = (problem as { availability?: unknown } | null)?.availability as Partial<FreshDays> | undefined;
  const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);
  if (!a || !isDate(a.from) || !isDate(a.to) || !Array.isArray(a.days)) return null;
  const days = a.days.filter((d) => isDate(d?.date) && Array.isArray(d.times) && d.times.every((t) => typeof t === 'string'));
  return { from: a.from!, to: a.to!, days };
}

