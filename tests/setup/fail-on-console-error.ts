/**
 * A test that logs console.error fails (Epic Stack's habit): an error log
 * nobody asserted is a bug nobody saw. Tests that expect one spy on
 * console.error themselves.
 */
import { afterEach, beforeEach, expect, vi } from 'vitest';

let spy: import('vitest').MockInstance<typeof console.error> | undefined;

beforeEach(() => {
  spy = vi.spyOn(console, 'error');
});

afterEach(() => {
  const calls = spy?.mock.calls ?? [];
  spy?.mockRestore();
  // A test that installed its own mock (mockImplementation) owns its errors.
  if (spy && spy.getMockImplementation()) return;
  expect(calls.map((c: unknown[]) => c.map(String).join(' ')), 'console.error was called').toEqual([]);
});
