/**
 * The calendar of the wizard and of a move (docs/decisions/029): a day with
 * no free time left, today included, is not a choice; when moving, the
 * patient's own time shows on its day as "Ihr Termin" / "Your appointment"
 * and is not offered; a public holiday or closed day the server names
 * (docs/decisions/039-public-holidays.md) is marked and named "Feiertag" /
 * "Public holiday". Both languages.
 */
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react';
import { createRef, useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { StepDateTime } from './step-date-time';
import { monthCaption } from '../../../tests/helpers/month-caption';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const TYPE = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Check-up',
  name_en: 'Health check',
  description: 'Vorsorge',
  description_en: 'Prevention',
  max_advance_days: 14,
  slot_duration_minutes: 20,
  max_slots_per_time: 2,
  price_cents: null,
};
const TODAY = berlinToday();
const DAY = addDaysToDate(TODAY, 2);

function Harness({ lang, own, initial }: { lang: 'de' | 'en'; own?: { date: string; time: string }; initial: string | null }) {
  const [date, setDate] = useState<string | null>(initial);
  const [time, setTime] = useState<string | null>(null);
  return (
    <I18nextProvider i18n={createI18n(lang)}>
      <StepDateTime headingRef={createRef()} type={TYPE} typeName={{ text: 'Check-up', lang: undefined }} lang={lang} date={date} time={time} onDate={setDate} onTime={setTime} own={own} />
      <output data-testid="chosen">{time ?? ''}</output>
    </I18nextProvider>
  );
}

type Closed = { date: string; name: string; name_en: string; statutory: boolean };

/** Answers each availability request with the days it asked for (from–to), as the server does: at a month's end DAY is next month's. */
function stubDays(days: Array<{ date: string; times: string[] }>, holidays: Closed[] = []) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const asked = new URL(String(input), 'http://localhost').searchParams;
      const [from, to] = [asked.get('from') ?? '', asked.get('to') ?? '9999'];
      const within = days.filter((d) => d.date >= from && d.date <= to);
      const closed = holidays.filter((d) => d.date >= from && d.date <= to);
      return new Response(JSON.stringify({ timezone: 'Europe/Berlin', type: TYPE.id, days: within, holidays: closed }), { headers: { 'content-type': 'application/json' } });
    }),
  );
}

/** The calendar's day button of a date (react-day-picker marks each cell with data-day). */
const dayButton = (iso: string) => document.querySelector(`[data-day="${iso}"] button`) as HTMLButtonElement | null;

/** The day's button once the calendar shows its month and its answer has loaded. */
async function waitForDay(iso: string): Promise<HTMLButtonElement> {
  let found: HTMLButtonElement | null = null;
  await vi.waitFor(() => {
    found = dayButton(iso);
    if (!found || !found.closest('td')!.className.includes('rdp-holiday')) throw new Error(`no holiday mark on ${iso} yet`);
  });
  return found!;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe.each(['de', 'en'] as const)('calendar days (%s)', (lang) => {
  const x = { de: { own: 'Ihr Termin', time: (t: string) => `${t} Uhr` }, en: { own: 'Your appointment', time: (t: string) => t } }[lang];

  it('today without a free time left is not selectable (nor any full day); a day with times is', async () => {
    stubDays([
      { date: TODAY, times: [] },
      { date: addDaysToDate(TODAY, 1), times: [] },
      { date: DAY, times: ['09:00'] },
    ]);
    render(<Harness lang={lang} initial={null} />);
    await screen.findByRole('button', { name: x.time('09:00') });
    // Each day checked in its own month, turning the calendar as a patient
    // would (at a month's end it opens on DAY's month, after today's).
    const checkShown = () => {
      const shown = screen.getByRole('grid').getAttribute('aria-label');
      for (const date of [TODAY, addDaysToDate(TODAY, 1), DAY]) {
        if (monthCaption(date, lang) !== shown) continue;
        expect(dayButton(date)!.disabled, date).toBe(date !== DAY);
        if (date === TODAY) expect(dayButton(date)!.closest('td')!.className).toContain('rdp-disabled');
      }
    };
    checkShown();
    if (monthCaption(TODAY, lang) !== screen.getByRole('grid').getAttribute('aria-label')) {
      fireEvent.click(screen.getByRole('button', { name: /vorherigen Monat|previous month/i }));
      await screen.findByRole('grid', { name: monthCaption(TODAY, lang) });
      checkShown();
    }
  });

  it('a holiday the server names is marked, named "Feiertag" / "Public holiday" in its label and beneath the calendar, and not a choice', async () => {
    const holiday = addDaysToDate(DAY, 1);
    const closed = addDaysToDate(DAY, 2);
    stubDays(
      [{ date: DAY, times: ['09:00'] }, { date: addDaysToDate(DAY, 3), times: ['09:00'] }],
      [
        { date: holiday, name: '1. Weihnachtstag', name_en: 'Christmas Day', statutory: true },
        { date: closed, name: 'Silvester', name_en: "New Year's Eve", statutory: false },
      ],
    );
    render(<Harness lang={lang} initial={null} />);
    await screen.findByRole('button', { name: x.time('09:00') });
    for (const [date, text] of [
      [holiday, { de: 'Feiertag: 1. Weihnachtstag', en: 'Public holiday: Christmas Day' }[lang]],
      [closed, { de: 'Praxis geschlossen: Silvester', en: "Practice closed: New Year's Eve" }[lang]],
    ] as const) {
      // Turned to the day's month as a patient would (at a month's end it is the next one).
      if (monthCaption(date, lang) !== screen.getByRole('grid').getAttribute('aria-label')) {
        fireEvent.click(screen.getByRole('button', { name: /nächsten Monat|next month/i }));
        await screen.findByRole('grid', { name: monthCaption(date, lang) });
      }
      const button = await waitForDay(date);
      expect(button.disabled).toBe(true);
      expect(button.getAttribute('aria-label')).toContain(text);
      expect(button.closest('td')!.className).toContain('rdp-holiday');
      const list = await screen.findByRole('list', { name: { de: 'Geschlossene Tage in diesem Monat', en: 'Closed days this month' }[lang] });
      expect(list.textContent).toContain(text);
    }
    // An ordinary day is not marked.
    expect(dayButton(addDaysToDate(DAY, 3))?.closest('td')?.className ?? '').not.toContain('rdp-holiday');
  });

  it('moving: the own time shows as "Ihr Termin" in its place and is not offered; the others are', async () => {
    stubDays([{ date: DAY, times: ['08:40', '09:00', '09:20'] }]);
    render(<Harness lang={lang} own={{ date: DAY, time: '09:00' }} initial={DAY} />);
    const group = await screen.findByRole('group');
    await within(group).findByRole('button', { name: x.time('09:20') });
    const own = within(group).getByTestId('own-time');
    expect(own.textContent).toContain('09:00');
    expect(own.textContent).toContain(x.own);
    expect(within(group).queryByRole('button', { name: x.time('09:00') })).toBeNull();
    // In the day's order: 08:40, own 09:00, 09:20.
    expect([...group.children].map((c) => c.textContent?.slice(0, 5))).toEqual(['08:40', '09:00', '09:20']);
    fireEvent.click(own);
    expect(screen.getByTestId('chosen').textContent).toBe('');
  });

  it('moving: a day whose only time is the own one still shows it, with nothing to choose', async () => {
    stubDays([
      { date: DAY, times: [] },
      { date: addDaysToDate(DAY, 1), times: ['10:00'] },
    ]);
    render(<Harness lang={lang} own={{ date: DAY, time: '09:00' }} initial={DAY} />);
    const own = await screen.findByTestId('own-time');
    expect(own.textContent).toContain(x.own);
    expect(screen.queryByRole('button', { name: x.time('09:00') })).toBeNull();
  });
});
