/**
 * Every e2e spec runs on the suite's clock (tests/e2e/helpers/clock.ts):
 * it takes `test` from tests/e2e/helpers/test.ts, whose browser contexts
 * read E2E_NOW, and asks the helpers for today rather than formatting
 * `new Date()` itself, so the date matrix (npm run test:e2e:dates) moves
 * the whole spec to another day.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATE_SPECS, QUICK } from '../../scripts/date-matrix';

const E2E = path.resolve('tests/e2e');

describe('e2e specs', () => {
  it('take test from helpers/test.ts and today from helpers/clock.ts', async () => {
    const offenders: string[] = [];
    for (const name of (await readdir(E2E)).filter((f) => f.endsWith('.spec.ts'))) {
      const text = await readFile(path.join(E2E, name), 'utf8');
      if (/import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*'@playwright\/test'/.test(text)) offenders.push(`${name}: test from @playwright/test`);
      if (!/from '\.\/helpers\/test'/.test(text)) offenders.push(`${name}: no test from ./helpers/test`);
      if (/\.format\(new Date\(\)\)|Date\.now\(\)\s*[+-]\s*[^;]*864e5/.test(text)) offenders.push(`${name}: computes a date from the real clock`);
    }
    expect(offenders).toEqual([]);
  });

  it('that pick or compute a date are all in the date matrix (scripts/date-matrix.ts)', async () => {
    const datePicking = /helpers\/clock'|chooseSlot|onDateWithTimes|bookWithLink|pickSlot|showMonthOf|addDaysToDate/;
    const missing: string[] = [];
    for (const name of (await readdir(E2E)).filter((f) => f.endsWith('.spec.ts'))) {
      if (datePicking.test(await readFile(path.join(E2E, name), 'utf8')) && !DATE_SPECS.includes(name)) missing.push(name);
    }
    expect(missing).toEqual([]);
    for (const name of [...DATE_SPECS, ...QUICK.specs]) expect((await readdir(E2E)).includes(name), name).toBe(true);
  });
});
