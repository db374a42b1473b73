/**
 * The public-holiday library stays out of the patients' browsers
 * (docs/decisions/039-public-holidays.md): the wizard learns the closed
 * days from GET /api/availability (`holidays`), so no patient page's
 * script bundles feiertagejs (the booking page's 10 KB budget, and the
 * wizard's size). Checked by bundling the patient pages' islands and
 * scripts as the browser gets them (type-only imports erased) and reading
 * what went in; and only src/lib/holidays.ts imports the library.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** What patient pages load (src/pages → src/islands): the booking wizard and its start-up, the link page, contact, waitlist, requests, install banner. */
const PATIENT_ENTRIES = [
  'src/islands/booking/booking-wizard-de.tsx',
  'src/islands/booking/booking-wizard-en.tsx',
  'src/islands/booking/wizard-boot.ts',
  'src/islands/booking/type-cards.ts',
  'src/islands/booking/cancel-appointment.tsx',
  'src/islands/contact/contact-form-de.tsx',
  'src/islands/contact/contact-form-en.tsx',
  'src/islands/waitlist/waitlist-boot.ts',
  'src/islands/requests/request-form.ts',
  'src/islands/requests/request-status.ts',
  'src/islands/install/install-banner.ts',
];

async function sources(dir: string): Promise<string[]> {
  return (await readdir(path.resolve(dir), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile() && /\.(ts|tsx|astro|mjs)$/.test(e.name))
    .map((e) => path.relative(process.cwd(), path.join(e.parentPath, e.name)));
}

describe('the holiday library', () => {
  it('is in no patient page\'s script bundle', async () => {
    const result = await build({
      entryPoints: PATIENT_ENTRIES,
      bundle: true,
      write: false,
      metafile: true,
      platform: 'browser',
      format: 'esm',
      splitting: true,
      outdir: 'out',
      loader: { '.css': 'empty' },
      // Astro's build-time modules (the islands' translations): not libraries.
      external: ['virtual:*', 'astro:*'],
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    // The bundle is real: the wizard's calendar and the Berlin clock are in it.
    expect(inputs.some((i) => i.includes('node_modules/react-day-picker/'))).toBe(true);
    expect(inputs).toContain('src/lib/berlin-time.ts');
    expect(inputs.filter((i) => i.includes('feiertagejs') || i.endsWith('src/lib/holidays.ts'))).toEqual([]);
  }, 120_000);

  it('is imported by src/lib/holidays.ts alone', async () => {
    const importers: string[] = [];
    for (const folder of ['src', 'netlify', 'db', 'scripts']) {
      for (const file of await sources(folder)) {
        if (/['"]feiertagejs(\/[^'"]*)?['"]/.test(await readFile(file, 'utf8'))) importers.push(file);
      }
    }
    expect(importers).toEqual(['src/lib/holidays.ts']);
  });
});
