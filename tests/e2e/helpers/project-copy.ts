/**
 * A throw-away copy of the project (sources and the built dist/), for a
 * server whose content the test changes: the content editor writes
 * src/content and rebuilds the pages, which must never touch the
 * repository's own files. node_modules is a folder of links to the real
 * packages, except Astro's and Vite's caches, which the copy's build keeps
 * to itself.
 */
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const COPIED = ['src', 'public', 'scripts', 'db', 'netlify', 'dist', 'astro.config.mjs', 'package.json', 'tsconfig.json'];
const OWN_CACHES = new Set(['.astro', '.vite', '.cache']);

export interface ProjectCopy {
  root: string;
  remove(): Promise<void>;
}

export async function copyProject(name: string): Promise<ProjectCopy> {
  const root = await mkdtemp(path.join(os.tmpdir(), `praxis-${name}-`));
  for (const entry of COPIED) await cp(entry, path.join(root, entry), { recursive: true });
  await mkdir(path.join(root, 'node_modules'));
  for (const entry of await readdir('node_modules')) {
    if (!OWN_CACHES.has(entry)) await symlink(path.resolve('node_modules', entry), path.join(root, 'node_modules', entry));
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
