/**
 * The month-by-month availability hook when the type changes while the
 * first free date is still being searched: the staff picker mounts with the
 * first type and staff pick another at once. Answers for the type picked
 * before must never be shown as the new type's times.
 */
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { berlinToday } from '../../lib/berlin-time';
import type { RangeAvailability } from './api';
import { nextMonth, useAvailability, type AvailabilitySource } from './use-availability';

afterEach(cleanup);

interface Pending {
  typeId: string;
  from: string;
  resolve: (answer: RangeAvailability) => void;
}

/** A source whose answers the test releases one by one, in the order it chooses. */
function heldSource() {
  const pending: Pending[] = [];
  const source: AvailabilitySource = {
    horizonDays: 365,
    fetch: (typeId, from) => new Promise((resolve) => pending.push({ typeId, from, resolve })),
  };
  const take = async (typeId: string, month: string) => {
    await waitFor(() => expect(pending.some((p) => p.typeId === typeId && p.from.startsWith(month))).toBe(true));
    const i = pending.findIndex((p) => p.typeId === typeId && p.from.startsWith(month));
    return pending.splice(i, 1)[0]!;
  };
  return { source, pending, take };
}

const thisMonth = berlinToday().slice(0, 7);
const following = nextMonth(thisMonth);
const day = `${following}-10`;
/** This month has nothing left (a visit after closing on the month's last day); the next has times. */
const emptyMonth: RangeAvailability = { days: [], holidays: [] };
const withTimes = (times: string[]): RangeAvailability => ({ days: [{ date: day, times }], holidays: [] });

describe('useAvailability: a type changed during the search for the first free date', () => {
  it("keeps the new type's times when the old type's search answers last", async () => {
    const { source, pending, take } = heldSource();
    const { result, rerender } = renderHook(({ id }) => useAvailability({ id, max_advance_days: 365 }, () => {}, source), {
      initialProps: { id: 'first-type' },
    });
    // The picker opens on the first type and searches from this month.
    let firstSearch!: Promise<unknown>;
    act(() => {
      firstSearch = result.current.findFirst();
    });
    const oldThisMonth = await take('first-type', thisMonth);

    // Staff pick the other type before that answer came: the picker resets and searches again.
    rerender({ id: 'picked-type' });
    let secondSearch!: Promise<{ month: string; date: string | null } | null>;
    act(() => {
      result.current.reset();
      secondSearch = result.current.findFirst();
    });
    (await take('picked-type', thisMonth)).resolve(emptyMonth);
    (await take('picked-type', following)).resolve(withTimes(['09:20']));
    await expect(secondSearch).resolves.toEqual({ month: following, date: day });
    await waitFor(() => expect(result.current.timesOf(day)).toEqual(['09:20']));

    // Only now does the first type's answer come: its search stops, and nothing of it is shown.
    let stopped = false;
    void firstSearch.then(() => (stopped = true));
    act(() => oldThisMonth.resolve(emptyMonth));
    // Either it stops, or it asks for the next month of the first type (the defect).
    await waitFor(() => expect(stopped || pending.some((p) => p.typeId === 'first-type')).toBe(true));
    expect(pending.filter((p) => p.typeId === 'first-type').map((p) => p.from)).toEqual([]);
    await expect(firstSearch).resolves.toBeNull();
    expect(result.current.timesOf(day)).toEqual(['09:20']);
  });

  it('never stores an answer for the type picked before, even one asked for after the change', async () => {
    const { source, take } = heldSource();
    const { result, rerender } = renderHook(({ id }) => useAvailability({ id, max_advance_days: 365 }, () => {}, source), {
      initialProps: { id: 'first-type' },
    });
    // What a search still running for the first type holds: its own month loader.
    const firstTypeLoad = result.current.loadMonth;
    rerender({ id: 'picked-type' });
    act(() => {
      void result.current.loadMonth(following);
    });
    (await take('picked-type', following)).resolve(withTimes(['09:20']));
    await waitFor(() => expect(result.current.timesOf(day)).toEqual(['09:20']));

    let late!: Promise<unknown>;
    act(() => {
      late = firstTypeLoad(following);
    });
    await act(async () => {
      (await take('first-type', following)).resolve(withTimes(['09:00', '09:20']));
      await late;
    });
    expect(result.current.timesOf(day)).toEqual(['09:20']);
  });
});
