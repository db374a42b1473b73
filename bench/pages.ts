/**
 * Page weight and Lighthouse scores of every public page in both languages
 * (docs/decisions/007-installable-app-and-page-weight.md), on the built site served by the caller.
 *
 * - Pages are discovered from dist/: every index.html except the admin area,
 *   login, admin setup and the cancel page (reached only from an email).
 * - Weight: the page is loaded in Debian's Chromium (Playwright, fresh
 *   context, service workers blocked so only the page's own requests count);
 *   every JS and CSS response body is gzipped with node:zlib (default level)
 *   and summed. Scripts and styles written inline into the HTML count too.
 * - Budgets: an informational page (nothing of its own to run) under 3 KB
 *   of JS on load; a patient page with an island or a script of its own
 *   (booking, waitlist, contact, …: an <astro-island> or a module script from
 *   /_astro/ in its HTML) under the booking page's 10 KB on load (what it
 *   loads on interaction is printed apart); Lighthouse 100 everywhere.
 * - Lighthouse 12, default (mobile) preset: one run per page, driving the
 *   same Chromium through chrome-launcher. A page whose view depends on its
 *   query (the waitlist's form) is opened with the one `queries` gives.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/** Not public pages in the sense of the budgets (paths without the /en prefix); the status pages, like the cancel page, are reached only from an email. */
const EXCLUDED = ['admin', 'auth', 'admin-setup', 'termin/absagen', 'anfrage/status', 'request/status', '404'];
/** Pages whose JS over a whole visit (chunks loaded on demand included) is printed too. */
const WHOLE_VISIT_PAGES = new Set(['/termin', '/en/termin', '/termin/warteliste', '/en/termin/warteliste']);

/** JS on load: an informational page; a patient page with an island or a script of its own (the booking page's budget). */
export const TARGETS = { informationalJsBytes: 3 * 1024, interactiveJsBytes: 10 * 1024, score: 100 };

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

export interface PageFigures {
  path: string;
  /** gzip bytes of the JS files the page loads. */
  jsFiles: number;
  /** gzip bytes of the scripts written into the HTML. */
  jsInline: number;
  /** gzip bytes of the CSS files plus inline styles. */
  css: number;
  scores: Record<Category, number> | null;
  /** Lighthouse's total blocking time in ms (main-thread work on load beyond 50 ms per task). */
  tbt?: number;
  /** Titles of the audits that cost points, per category. */
  lost: Partial<Record<Category, string[]>>;
  lighthouseError?: string;
  /** gzip bytes of every JS file the page's islands can load, including chunks loaded on demand (booking pages). */
  islandsAllSteps?: number;
  /** The page has an island or a module script of its own: held to TARGETS.interactiveJsBytes. */
  interactive: boolean;
  /** `noindex` by design (the waitlist's link pages): Lighthouse's SEO score counts that against it, so it is not a target. */
  noindex: boolean;
}

/** URL paths of the public pages in dist/, German first, each followed by its English twin. */
export async function publicPages(distDir: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === 'index.html') {
        const rel = path.relative(distDir, dir).split(path.sep).join('/');
        const base = rel.replace(/^en(\/|$)/, '');
        if (EXCLUDED.some((x) => base === x || base.startsWith(`${x}/`))) continue;
        found.push(rel === '' ? '/' : rel === 'en' ? '/en/' : `/${rel}`);
      }
    }
  }
  await walk(path.resolve(distDir));
  const key = (p: string) => `${p.replace(/^\/en(?=\/|$)/, '') || '/'} ${p.startsWith('/en') ? 1 : 0}`;
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const gzipBytes = (text: string | Buffer) => (text.length === 0 ? 0 : gzipSync(text).length);

function inlineParts(html: string) {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter((m) => !/\bsrc\s*=/i.test(m[1] ?? '') && !/type\s*=\s*["']?application\/(ld\+)?json/i.test(m[1] ?? ''))
    .map((m) => m[2] ?? '')
    .join('\n');
  const styles = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1] ?? '').join('\n');
  return { scripts, styles };
}

async function measureWeight(browser: Browser, url: string) {
  // A German-preferring visitor stays on whichever twin the URL names (the first-load detection
  // moves pages only for a stored choice or an English preference), so no page is measured
  // through a redirect to its twin.
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'de-DE' });
  const page = await context.newPage();
  const bodies: Array<Promise<{ type: string; bytes: number }>> = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    bodies.push(response.body().then((body) => ({ type, bytes: gzipBytes(body) })));
  });
  const response = await page.goto(url, { waitUntil: 'networkidle' });
  const html = (await response?.text()) ?? '';
  const files = await Promise.all(bodies);
  await context.close();
  const inline = inlineParts(html);
  const sum = (type: string) => files.filter((f) => f.type === type).reduce((total, f) => total + f.bytes, 0);
  return { jsFiles: sum('script'), jsInline: gzipBytes(inline.scripts), css: sum('stylesheet') + gzipBytes(inline.styles), interactive: isInteractive(html), noindex: /<meta name="robots" content="[^"]*noindex/.test(html) };
}

/** An island, or a module script the page loads from /_astro/ (the layout's own scripts are inline or in public/). */
export function isInteractive(html: string): boolean {
  return /<astro-island\b/.test(html) || /<script\b[^>]*type="module"[^>]*src="\/_astro\//.test(html);
}

async function runLighthouse(url: string, port: number) {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error('Lighthouse returned no result');
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(lhr.runtimeError.message);
  const scores = {} as Record<Category, number>;
  const lost: PageFigures['lost'] = {};
  for (const id of CATEGORIES) {
    const category = lhr.categories[id]!;
    scores[id] = Math.round((category.score ?? 0) * 100);
    const titles = category.auditRefs
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id]!)
      .filter((audit) => audit.score !== null && audit.score < 1)
      .map((audit) => (audit.displayValue ? `${audit.title} (${audit.displayValue})` : audit.title));
    if (titles.length) lost[id] = titles;
  }
  const tbt = lhr.audits['total-blocking-time']?.numericValue;
  return { scores, lost, tbt: tbt === undefined ? undefined : Math.round(tbt) };
}

/**
 * Every JS file a built page's islands and module scripts can ever load: their
 * entry modules and everything they import, statically or on demand (a static
 * walk of dist/). The booking page's start-up script can import either
 * language's wizard; only the page's own counts.
 */
export async function islandClosureBytes(distDir: string, pagePath: string): Promise<number> {
  const html = await readFile(path.join(distDir, pagePath, 'index.html'), 'utf8');
  const queue = [
    ...html.matchAll(/(?:component|renderer)-url="\/_astro\/([^"]+\.js)"/g),
    ...html.matchAll(/<script type="module" src="\/_astro\/([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  const otherWizard = pagePath.startsWith('/en') ? 'booking-wizard-de.' : 'booking-wizard-en.';
  const seen = new Set<string>();
  let bytes = 0;
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file) || file.startsWith(otherWizard)) continue;
    seen.add(file);
    const code = await readFile(path.join(distDir, '_astro', file));
    bytes += gzipBytes(code);
    for (const m of code.toString('utf8').matchAll(/["']\.\/([\w.-]+\.js)["']/g)) queue.push(m[1]!);
  }
  return bytes;
}

/** Measures every page: weight in Playwright's Chromium, then one Lighthouse run each (`queries`: a page's query string, e.g. the waitlist form's `?type=`). */
export async function measurePages(
  baseUrl: string,
  paths: string[],
  distDir = 'dist',
  log: (line: string) => void = console.log,
  queries: Record<string, string> = {},
): Promise<PageFigures[]> {
  const figures: PageFigures[] = [];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    for (const p of paths) {
      const islandsAllSteps = WHOLE_VISIT_PAGES.has(p) ? await islandClosureBytes(distDir, p) : undefined;
      figures.push({ path: p, ...(await measureWeight(browser, baseUrl + p + (queries[p] ?? ''))), scores: null, lost: {}, islandsAllSteps });
    }
  } finally {
    await browser.close();
  }

  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: [...CHROMIUM_FLAGS, '--lang=de-DE', '--accept-lang=de-DE'] });
  try {
    for (const entry of figures) {
      log(`  Lighthouse ${entry.path} …`);
      try {
        Object.assign(entry, await runLighthouse(baseUrl + entry.path + (queries[entry.path] ?? ''), chrome.port));
      } catch (error) {
        entry.lighthouseError = error instanceof Error ? error.message : String(error);
      }
    }
  } finally {
    chrome.kill();
  }
  return figures;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The table, with each figure's target beside it, and what cost points where a score is below 100. */
export function printPageFigures(figures: PageFigures[], log: (line: string) => void = console.log) {
  const rows = figures.map((f) => {
    const js = f.jsFiles + f.jsInline;
    const jsTarget = f.interactive ? TARGETS.interactiveJsBytes : TARGETS.informationalJsBytes;
    const s = f.scores;
    return [
      `${f.path}${f.interactive ? ' *' : ''}`,
      `${kb(js)} (${kb(f.jsFiles)} files + ${kb(f.jsInline)} inline)`,
      `< ${kb(jsTarget)} ${js < jsTarget ? 'met' : 'MISSED'}`,
      kb(f.css),
      f.tbt === undefined ? '–' : `${f.tbt} ms`,
      ...(s ? CATEGORIES.map((c) => String(s[c])) : CATEGORIES.map(() => '–')),
      s ? (CATEGORIES.every((c) => s[c] >= TARGETS.score || (c === 'seo' && f.noindex)) ? `met${f.noindex ? ' (noindex: SEO not a target)' : ''}` : 'MISSED') : `error: ${f.lighthouseError}`,
    ];
  });
  const header = ['page', 'JS gzip', 'JS target', 'CSS gzip', 'TBT', 'perf', 'a11y', 'best pr.', 'SEO', 'all 100'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  log('');
  log('Pages: transferred JS and CSS (gzip, node:zlib) in Chromium; Lighthouse 12, mobile preset, one run per page');
  log(
    `Targets: informational pages < ${kb(TARGETS.informationalJsBytes)} JS on load; patient pages with an island or a script of their own (*) < ${kb(TARGETS.interactiveJsBytes)} (the booking page's budget); every score ${TARGETS.score}`,
  );
  log(line(header));
  for (const row of rows) log(line(row));
  const interactive = figures.filter((f) => f.interactive);
  const over = interactive.filter((f) => f.jsFiles + f.jsInline >= TARGETS.interactiveJsBytes || (f.scores !== null && f.scores.performance < TARGETS.score));
  log(
    `Patient pages with an island or a script of their own (${interactive.map((f) => f.path).join(', ')}): < ${kb(TARGETS.interactiveJsBytes)} JS on load and performance ${TARGETS.score}: ${over.length ? `MISSED by ${over.map((f) => f.path).join(', ')}` : 'met'}`,
  );
  for (const f of figures.filter((x) => x.islandsAllSteps !== undefined)) {
    log(`${f.path}: the page's JS over a whole visit, including what loads on demand: ${kb(f.islandsAllSteps!)} (static walk of dist/)`);
  }
  const lostLines = figures.flatMap((f) =>
    Object.entries(f.lost).map(([category, titles]) => `  ${f.path} ${category}: ${titles.join('; ')}`),
  );
  if (lostLines.length) {
    log('Audits that cost points:');
    for (const l of lostLines) log(l);
  }
}
