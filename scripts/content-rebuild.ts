/**
 * Locally (APP_ENV=development) a save in the content editor changes files
 * under src/content; this rebuilds the static pages so the change shows
 * without restarting the server. In production the commit starts Netlify's
 * build instead and nothing here runs.
 *
 * - A full `astro build` takes about half a minute to a minute and a half on
 *   a busy two-core machine, so it runs in a child process, into a folder of
 *   its own (`dist.next/`), while the server keeps serving the old pages.
 * - When it succeeds, the new folder takes the old one's place with two
 *   synchronous renames (dist → dist.old, dist.next → dist): no request
 *   handled in between can see half a site, and `dist/` stays what a
 *   restart serves.
 * - Saves during a build are not lost and do not pile up: they ask for one
 *   more build after the running one. A failed build keeps the pages as
 *   they were and is logged; the next save tries again.
 */
import { spawn } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { onContentSaved, setLocalPublishStatus } from '../src/server/content/published.server';

export interface ContentRebuilds {
  /** Resolves when no build is running or waiting. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface RebuildOptions {
  /** The project to build (its src/content is what the editor writes). */
  root: string;
  /** The folder the server serves, replaced after each successful build. */
  distDir: string;
  log?: (line: string) => void;
  /** The build command; the project's own Astro by default. */
  command?: string[];
  /** Environment for the build on top of the server's (e.g. the build's own SITE_URL). */
  env?: Record<string, string>;
}

/**
 * Why a build failed, for the editor: the content file and field when the
 * build named them (Astro's schema errors, the Markdown check), else the
 * first error line. At most 300 characters, no colour codes.
 */
export function buildFailureDetail(output: string): string {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n').map((l) => l.trim()).filter(Boolean);
  const fileLine = lines.findIndex((l) => /src\/content\/[\w/.-]+|\*\*\w+ → [\w/.-]+\*\*|does not match collection schema/.test(l));
  let detail: string;
  if (fileLine >= 0) {
    detail = lines.slice(fileLine, fileLine + 3).join(' ');
  } else {
    detail = lines.find((l) => /error/i.test(l)) ?? lines.at(-1) ?? 'unbekannter Fehler';
  }
  return detail.length > 300 ? `${detail.slice(0, 299)}…` : detail;
}

export function startContentRebuilds(options: RebuildOptions): ContentRebuilds {
  const log = options.log ?? ((line: string) => console.info(line));
  const dist = path.resolve(options.root, options.distDir);
  const next = `${dist}.next`;
  const old = `${dist}.old`;
  const command = options.command ?? [process.execPath, path.join(options.root, 'node_modules/astro/astro.js'), 'build', '--outDir', next];
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let child: ReturnType<typeof spawn> | null = null;

  function build(): Promise<void> {
    return new Promise((resolve) => {
      const started = Date.now();
      let output = '';
      setLocalPublishStatus('running');
      // Its own Astro cache (and so its own content store): never the one `npm start` or `npm run build` uses.
      const env = { ...process.env, PRAXIS_ASTRO_CACHE_DIR: path.join(options.root, 'node_modules/.astro-content-rebuild'), ...options.env };
      child = spawn(command[0]!, command.slice(1), { cwd: options.root, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
      child.once('exit', async (code) => {
        child = null;
        if (code === 0 && existsSync(next)) {
          await rm(old, { recursive: true, force: true });
          // One synchronous step: every request sees either the old or the new site.
          if (existsSync(dist)) renameSync(dist, old);
          renameSync(next, dist);
          await rm(old, { recursive: true, force: true });
          if (!again) setLocalPublishStatus('live');
          log(`content saved: pages rebuilt in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        } else if (!stopped) {
          setLocalPublishStatus('failed', buildFailureDetail(output));
          log(`content saved, but the pages could not be rebuilt (exit ${code}); still serving the previous ones\n${output.slice(-1500)}`);
        }
        resolve();
      });
    });
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      await build();
    } while (again && !stopped);
    running = null;
  }

  const unsubscribe = onContentSaved(() => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    setLocalPublishStatus('queued');
    log('content saved: rebuilding the pages');
    running = loop();
  });

  return {
    idle: async () => {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      unsubscribe();
      child?.kill('SIGTERM');
      await this.idle();
    },
  };
}
