/**
 * `npm run bench:booking-pages [runs] [booking|waitlist|all]`: Lighthouse
 * (mobile preset) on /termin and /en/termin only (or the waitlist's form,
 * /termin/warteliste?type=…, in both languages), several runs each, on the built site (run `astro build`
 * first) with the demo data in a throw-away embedded database. Prints every
 * run's performance score and total blocking time, and the scripts that cost
 * main-thread time, so a change to the wizard's start-up can be judged on a
 * busy machine without the whole of `npm run bench`. Asserts nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { appointmentTypes } from '../db/schema';
import { closeDb, getDb } from '../src/server/database.server';
import { seedDemoData } from '../scripts/demo-data';
import { startLocalServer } from '../scripts/local-server';

const runs = Number(process.argv[2] ?? 3);
/** `booking` (default), `waitlist` (its form, from the wizard's link) or `all`. */
const which = process.argv[3] ?? 'booking';
if (!['booking', 'waitlist', 'all'].includes(which)) throw new Error(`unknown page set ${which}: booking, waitlist or all`);
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'praxis-booking-pages-'));
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
process.env.APP_ENV ??= 'development';
await seedDemoData(await getDb());
const [firstType] = await (await getDb()).select({ id: appointmentTypes.id }).from(appointmentTypes).orderBy(appointmentTypes.name).limit(1);
const waitlistPages = ['/termin/warteliste', '/en/termin/warteliste'].map((p) => `${p}?type=${firstType!.id}`);
const PAGES = [...(which === 'waitlist' ? [] : ['/termin', '/en/termin']), ...(which === 'booking' ? [] : waitlistPages)];
const running = await startLocalServer({ port: 0, distDir: 'dist', functionsDir: 'netlify/functions', log: () => {} });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [...CHROMIUM_FLAGS, '--lang=de-DE', '--accept-lang=de-DE'],
});

interface Row {
  page: string;
  score: number;
  tbt: number;
  fcp: number;
  lcp: number;
  cls: number;
  scripts: string;
}
const rows: Row[] = [];
try {
  for (let run = 0; run < runs; run++) {
    for (const page of PAGES) {
      const result = await lighthouse(running.url + page, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      const lhr = result!.lhr;
      // LHR_DIR=…: keep each run's report for a closer look (long tasks, main-thread breakdown).
      if (process.env.LHR_DIR) await writeFile(path.join(process.env.LHR_DIR, `${page.replaceAll('/', '_')}-${run}.json`), JSON.stringify(lhr));
      const audit = (id: string) => lhr.audits[id]!;
      const bootup = (audit('bootup-time').details as { items?: Array<{ url: string; scripting: number; total: number }> } | undefined)?.items ?? [];
      rows.push({
        page,
        score: Math.round((lhr.categories.performance!.score ?? 0) * 100),
        tbt: Math.round(audit('total-blocking-time').numericValue ?? 0),
        fcp: Math.round(audit('first-contentful-paint').numericValue ?? 0),
        lcp: Math.round(audit('largest-contentful-paint').numericValue ?? 0),
        cls: Number((audit('cumulative-layout-shift').numericValue ?? 0).toFixed(3)),
        scripts: bootup
          .filter((item) => item.total >= 20)
          .map((item) => `${item.url.replace(running.url, '').replace(/^\/_astro\//, '')} ${Math.round(item.scripting)}/${Math.round(item.total)}`)
          .join(', '),
      });
      const row = rows.at(-1)!;
      console.log(`${row.page.replace(/\?.*/, '').padEnd(22)} perf ${String(row.score).padStart(3)}  TBT ${String(row.tbt).padStart(4)} ms  FCP ${row.fcp} ms  LCP ${row.lcp} ms  CLS ${row.cls}  scripting/total ms: ${row.scripts}`);
    }
  }
} finally {
  chrome.kill();
  await running.close();
  await closeDb();
  await rm(dataDir, { recursive: true, force: true });
}
for (const page of PAGES) {
  const mine = rows.filter((r) => r.page === page);
  console.log(`${page.replace(/\?.*/, '')}: perf ${mine.map((r) => r.score).join(' ')}, TBT ${mine.map((r) => r.tbt).join(' ')} ms`);
}
