import { describe, expect, it, vi } from 'vitest';
import { onDemand, shouldReloadForMissingChunk } from './on-demand';

describe('onDemand', () => {
  it('loads once, then gives the module synchronously', async () => {
    const load = vi.fn(async () => ({ step: 2 }));
    const module = onDemand(load);
    expect(module.get()).toBeUndefined();
    const [a, b] = await Promise.all([module.load(), module.load()]);
    expect(a).toBe(b);
    expect(module.get()).toEqual({ step: 2 });
    await module.load();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('may be retried after a failed load', async () => {
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValueOnce({ step: 3 });
    const module = onDemand(load);
    await expect(module.load()).rejects.toThrow('Failed to fetch');
    expect(module.get()).toBeUndefined();
    await expect(module.load()).resolves.toEqual({ step: 3 });
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('shouldReloadForMissingChunk', () => {
  const now = 1_800_000_000_000;
  it.each<[string, boolean, number | null, boolean]>([
    ['online, never reloaded', true, null, true],
    ['offline: a reload would not help', false, null, false],
    ['reloaded 10 s ago: no loop', true, now - 10_000, false],
    ['reloaded 2 minutes ago', true, now - 120_000, true],
    ['a stored time in the future does not block', true, now + 120_000, true],
  ])('%s', (_name, online, last, expected) => {
    expect(shouldReloadForMissingChunk(online, last, now)).toBe(expected);
  });
});
