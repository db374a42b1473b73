import { describe, expect, it } from 'vitest';
import { isExpiringSoon, isLowStock, needsReorder } from './inventory';

const item = (over: Partial<Parameters<typeof isLowStock>[0]> = {}) => ({
  current_stock: 5,
  minimum_stock: 5,
  is_ordered: false,
  expiry_date: null as string | null,
  ...over,
});

describe('inventory rules', () => {
  it.each([
    [4, 5, true],
    [5, 5, true],
    [6, 5, false],
  ])('stock %i with minimum %i is low: %s', (current, minimum, low) => {
    expect(isLowStock(item({ current_stock: current, minimum_stock: minimum }))).toBe(low);
  });

  it('needs reorder only while low and not ordered', () => {
    expect(needsReorder(item())).toBe(true);
    expect(needsReorder(item({ is_ordered: true }))).toBe(false);
    expect(needsReorder(item({ current_stock: 9 }))).toBe(false);
  });

  it.each([
    ['2026-12-31', '2026-12-31', true],
    ['2026-12-31', '2027-01-30', true],
    ['2026-12-31', '2027-01-31', false],
    ['2026-12-31', '2026-12-30', false],
  ])('today %s, expiry %s: expiring soon %s (0..30 days, across the year end)', (today, expiry, soon) => {
    expect(isExpiringSoon(item({ expiry_date: expiry }), today)).toBe(soon);
  });

  it('an item without expiry never expires soon', () => {
    expect(isExpiringSoon(item(), '2026-01-01')).toBe(false);
  });
});
