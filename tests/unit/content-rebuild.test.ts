/**
 * After a content save the local server rebuilds the pages
 * (scripts/content-rebuild.ts). A stand-in build (a child process that
 * writes dist.next/ slowly) shows that the old pages are served until the
 * new ones are complete, that saves during a build ask for exactly one
 * more, and that a failed build keeps the old pages.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startContentRebuilds, type ContentRebuilds } from '../../scripts/content-rebuild';
import { contentSaved, localPublishStatus } from '../../src/server/content/published.server';

/** Counts its runs in builds.txt, takes 300 ms, writes dist.next/index.html with its number; fails when fail.txt exists. */
const FAKE_BUILD = `
const fs = require('fs');
const n = (fs.existsSync('builds.txt') ? Number(fs.readFileSync('builds.txt', 'utf8')) : 0) + 1;
fs.writeFileSync('builds.txt', String(n));
fs.writeFileSync('env.json', JSON.stringify({ cacheDir: process.env.PRAXIS_ASTRO_CACHE_DIR, site: process.env.SITE_URL }));
setTimeout(() => {
  if (fs.existsSync('fail.txt')) {
    console.error('[InvalidContentEntryDataError] **pages → de/home** data does not match collection schema.');
    console.error('hero.heading: Required');
    process.exit(1);
  }
  fs.mkdirSync('dist.next', { recursive: true });
  fs.writeFileSync('dist.next/index.html', 'build ' + n);
}, 300);
`;

describe('rebuilding the pages after a content save', () => {
  let root: string;
  let rebuilds: ContentRebuilds;
  const lines: string[] = [];
  const page = () => readFile(path.join(root, 'dist/index.html'), 'utf8');
  const builds = async () => Number(await readFile(path.join(root, 'builds.txt'), 'utf8').catch(() => '0'));

  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'praxis-rebuild-'));
    await mkdir(path.join(root, 'dist'));
    await writeFile(path.join(root, 'dist/index.html'), 'old');
    lines.length = 0;
    rebuilds = startContentRebuilds({ root, distDir: 'dist', command: [process.execPath, '-e', FAKE_BUILD], log: (l) => lines.push(l), env: { SITE_URL: '' } });
  });
  afterEach(async () => {
    await rebuilds.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('serves the old pages while building and the new ones once complete', async () => {
    contentSaved(['src/content/de/home.md']);
    expect(await page()).toBe('old');
    await rebuilds.idle();
    expect(await page()).toBe('build 1');
    expect(lines.at(-1)).toMatch(/pages rebuilt/);
  });

  it('answers saves during a build with exactly one more build', async () => {
    contentSaved(['src/content/de/home.md']);
    contentSaved(['src/content/en/home.md']);
    contentSaved(['src/content/de/team.md']);
    await rebuilds.idle();
    expect(await builds()).toBe(2);
    expect(await page()).toBe('build 2');
  });

  it('keeps the old pages when a build fails, and builds again on the next save', async () => {
    await writeFile(path.join(root, 'fail.txt'), '');
    contentSaved(['src/content/de/home.md']);
    await rebuilds.idle();
    expect(await page()).toBe('old');
    expect(lines.at(-1)).toMatch(/could not be rebuilt/);
    await rm(path.join(root, 'fail.txt'));
    contentSaved(['src/content/de/home.md']);
    await rebuilds.idle();
    expect(await page()).toBe('build 2');
  });

  it('builds with an Astro cache of its own and the site URL it was given, not the server port', async () => {
    process.env.SITE_URL = 'http://127.0.0.1:39999';
    try {
      contentSaved(['src/content/de/home.md']);
      await rebuilds.idle();
    } finally {
      delete process.env.SITE_URL;
    }
    const env = JSON.parse(await readFile(path.join(root, 'env.json'), 'utf8'));
    expect(env.cacheDir).toBe(path.join(root, 'node_modules/.astro-content-rebuild'));
    expect(env.site).toBe('');
  });

  it('reports the publication: queued, running, live since the swap; failed naming the file and field', async () => {
    contentSaved(['src/content/de/home.md']);
    expect(['queued', 'running']).toContain(localPublishStatus().state);
    await expect.poll(() => localPublishStatus().state).toBe('running');
    await rebuilds.idle();
    const live = localPublishStatus();
    expect(live.state).toBe('live');
    expect(Date.now() - Date.parse(live.since)).toBeLessThan(5000);

    await writeFile(path.join(root, 'fail.txt'), '');
    contentSaved(['src/content/de/home.md']);
    await rebuilds.idle();
    const failed = localPublishStatus();
    expect(failed.state).toBe('failed');
    expect(failed.detail).toContain('de/home');
    expect(failed.detail).toContain('hero.heading: Required');
  });
});
