/**
 * Issue 23: after a content save the local server rebuilds the pages
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
import { contentSaved } from '../../src/server/content/published.server';

/** Counts its runs in builds.txt, takes 300 ms, writes dist.next/index.html with its number; fails when fail.txt exists. */
const FAKE_BUILD = `
const fs = require('fs');
const n = (fs.existsSync('builds.txt') ? Number(fs.readFileSync('builds.txt', 'utf8')) : 0) + 1;
fs.writeFileSync('builds.txt', String(n));
setTimeout(() => {
  if (fs.existsSync('fail.txt')) process.exit(1);
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
    rebuilds = startContentRebuilds({ root, distDir: 'dist', command: [process.execPath, '-e', FAKE_BUILD], log: (l) => lines.push(l) });
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
});
