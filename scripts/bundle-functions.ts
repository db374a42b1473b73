/**
 * `npm run build:functions`: pre-bundles every function found in
 * netlify/functions into a tree-shaken ES module each, in build/functions
 * (netlify.toml's [functions] directory), with the code they share in
 * chunks (SHARED_PACKAGE below), before Netlify's own bundler zips them.
 *
 * Why (docs/decisions/023): a cold function's start is the time Node takes
 * to read and evaluate its imports. Netlify traces modern functions file by
 * file (nft) and ships each package whole, so a function that used one
 * date-fns helper read 617 files, and packages came as both their ESM and
 * CJS builds. Bundled here, a function is its module and the chunks it
 * imports, holding only the code its route reaches, one ESM copy of each
 * dependency; Netlify's tracer adds the chunks and nothing else. A new function in netlify/functions is picked
 * up without any per-function work; tests/deploy and `npm run
 * bench:cold-start` check every one.
 *
 * Usage: tsx scripts/bundle-functions.ts [outDir]
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { loadHtmlParser, parseWithLocations } from '../src/lib/html-parse';
import { compactTree } from '../src/lib/html-tree';
import type { BuiltPage, BuiltPageSet } from '../src/server/built-pages/built-page';

const root = path.resolve(import.meta.dirname, '..');
const sourceDir = path.join(root, 'netlify/functions');

/**
 * Left to the runtime, never bundled:
 * - ws: the Neon driver's WebSocket for Node < 22 only (db/client.ts);
 *   functions run on Node 22, whose global WebSocket it uses. netlify.toml
 *   keeps the package out of the zips.
 * - pg-native: node-postgres's optional native binding, never installed.
 */
export const EXTERNAL = ['ws', 'pg-native'];

/**
 * zod's `z` namespace carries every one of its locales (about 300 KB, a
 * fifth of a function); ours are translation keys, and zod itself only
 * applies English by default (classic/schemas.js imports en.js directly).
 * `z.locales` keeps English alone.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]v4[\\/]/.test(args.importer)) return undefined;
      return { path: path.resolve(path.dirname(args.importer), args.path), namespace: 'zod-locales' };
    });
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`,
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * seven.io's client (the SMS adapter, docs/decisions/043-sms-second-channel.md)
 * loads a browser build of node:crypto (about 1 MB) by dynamic import, only
 * to sign requests or check webhooks with its own helpers, neither of which
 * the site uses (src/server/sms/webhook.server.ts checks signatures with
 * node:crypto). Bundled, every function that can send an SMS would carry
 * it; Node's own crypto stands in.
 */
const sevenWithNodeCrypto: Plugin = {
  name: 'seven-with-node-crypto',
  setup(b) {
    b.onResolve({ filter: /^\.\/(md5|index)-[A-Za-z0-9_-]+\.js$/ }, (args) => {
      if (args.kind !== 'dynamic-import' || !/[\\/]@seven\.io[\\/]client[\\/]/.test(args.importer)) return undefined;
      return { path: args.path, namespace: 'seven-node-crypto' };
    });
    b.onLoad({ filter: /.*/, namespace: 'seven-node-crypto' }, () => ({
      contents:
        "import * as crypto from 'node:crypto';\n" +
        'export const i = crypto;\n' +
        "export const m = { md5: (text) => crypto.createHash('md5').update(text).digest('hex') };\n",
      loader: 'js',
    }));
  },
};

/**
 * The pages that answers to form posts without JavaScript are made from
 * (src/server/built-pages/built-page.ts): each set's `bundled` is filled in
 * from the built site, one chunk per page with the page and its element
 * tree, parsed here (src/lib/html-tree.ts), so the function that answers
 * neither fetches the page nor parses it, and page and function come from
 * the same build. A page the site has not built (no dist/) stays out; the
 * function then fetches it from the site.
 */
export function builtPages(siteDir = path.join(root, 'dist')): Plugin {
  const pageFile = (pagePath: string) => path.join(siteDir, pagePath, 'index.html');
  return {
    name: 'built-pages',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]server[\\/]built-pages[\\/][a-z-]+-pages\.ts$/ }, async (args) => {
        const exported = Object.entries((await import(pathToFileURL(args.path).href)) as Record<string, BuiltPageSet>);
        if (exported.length !== 1) throw new Error(`${args.path}: one page set expected`);
        const [name, set] = exported[0]!;
        const mode = set.scripting ? 'scripting' : 'no-scripting';
        const bundled = set.paths.filter((p) => existsSync(pageFile(p))).map((p) => `${JSON.stringify(p)}: () => import(${JSON.stringify(`built-page:${mode}:${p}`)})`);
        return { contents: `export const ${name} = { paths: ${JSON.stringify(set.paths)}, scripting: ${set.scripting}, bundled: { ${bundled.join(', ')} } };`, loader: 'js' };
      });
      b.onResolve({ filter: /^built-page:/ }, (args) => ({ path: args.path.slice('built-page:'.length), namespace: 'built-page' }));
      b.onLoad({ filter: /.*/, namespace: 'built-page' }, async (args) => {
        const [mode, pagePath] = [args.path.slice(0, args.path.indexOf(':')), args.path.slice(args.path.indexOf(':') + 1)];
        const [html] = await Promise.all([readFile(pageFile(pagePath), 'utf8'), loadHtmlParser()]);
        const scripting = mode === 'scripting';
        const page: BuiltPage = { html, scripting, tree: compactTree(parseWithLocations(html, { scripting })) };
        // JSON in a string: V8 reads it faster than the same object as a literal.
        return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(page))});`, loader: 'js' };
      });
    },
  };
}

export async function functionEntries(dir = sourceDir): Promise<string[]> {
  return (await readdir(dir))
    .filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.includes('.test.') && !f.endsWith('.d.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

/**
 * Where the code that functions share lives, as a package beside them:
 * `<outDir>/node_modules/@praxis-website/shared/chunks/`. Netlify's bundler
 * bundles a function's relative imports into its one file again (undoing
 * any code splitting) but leaves package imports to Node, tracing their
 * files into the zip as they are. So the shared chunks stay separate,
 * minified files, and code a function reaches only through `import()` (the
 * mail and SMS clients, WebAuthn, QR codes, the CMS checks, Sentry) is read
 * only when a request needs it (docs/decisions/023).
 */
export const SHARED_PACKAGE = '@praxis-website/shared';

/**
 * A `require` for the CommonJS dependencies' calls (pg, postmark: Node's
 * built-ins), made on its first call: Node's first createRequire costs a
 * cold start milliseconds, and most requests never call it. Kept only in
 * the files that say `require` at all.
 */
const REQUIRE_BANNER = [
  "import { createRequire as __createRequire } from 'node:module';",
  'let __required;',
  'const __requireHere = () => (__required ??= __createRequire(import.meta.url));',
  'function require(id) { return __requireHere()(id); }',
  'require.resolve = (id, options) => __requireHere().resolve(id, options);',
].join('\n');

/** A module as written out: without the banner if nothing in it says `require`; function modules import the chunks by the package's name. */
function finish(code: string, isFunction: boolean): string {
  let out = code.startsWith(REQUIRE_BANNER) && !/\brequire\b/.test(code.slice(REQUIRE_BANNER.length)) ? code.slice(REQUIRE_BANNER.length).trimStart() : code;
  if (isFunction) out = out.replaceAll('"./chunks/', `"${SHARED_PACKAGE}/chunks/`);
  return out;
}

/** `extraEntries`: more entry points bundled the same way (the cold-start benchmark's empty function, never deployed). */
export async function bundleFunctions(outDir = path.join(root, 'build/functions'), extraEntries: string[] = []): Promise<Metafile> {
  const entryPoints = [...(await functionEntries()), ...extraEntries];
  if (entryPoints.length === extraEntries.length) throw new Error(`no functions in ${sourceDir}`);
  const stage = `${outDir}.stage`;
  await rm(outDir, { recursive: true, force: true });
  await rm(stage, { recursive: true, force: true });
  const result = await build({
    // Flat, named by file: one module per function, wherever its source lives.
    entryPoints: entryPoints.map((file) => ({ in: file, out: path.basename(file).replace(/\.[^.]+$/, '') })),
    outdir: stage,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Code two functions share, and code behind an import(), in chunks of their own.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // ESM builds of dual packages (date-fns, zod, drizzle-orm): one copy each, tree-shaken.
    mainFields: ['module', 'main'],
    external: EXTERNAL,
    plugins: [zodEnglishOnly, sevenWithNodeCrypto, builtPages()],
    // CommonJS dependencies (pg, postmark) call require() for Node's built-ins.
    banner: { js: REQUIRE_BANNER },
    // Smaller files parse faster. keepNames keeps every function's and class's
    // name, which V8 prints in stack traces, so the function log stays readable.
    minify: true,
    keepNames: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    // db/client.ts loads the embedded database by a computed specifier, on purpose (local only).
    logOverride: { 'unsupported-dynamic-import': 'silent' },
  });
  // The chunks become the shared package; each function imports them by the package's name.
  const shared = path.join(outDir, 'node_modules', SHARED_PACKAGE);
  await mkdir(shared, { recursive: true });
  await writeFile(path.join(shared, 'package.json'), `${JSON.stringify({ name: SHARED_PACKAGE, private: true, type: 'module' }, null, 2)}\n`);
  await mkdir(path.join(shared, 'chunks'));
  for (const file of await readdir(path.join(stage, 'chunks'))) {
    await writeFile(path.join(shared, 'chunks', file), finish(await readFile(path.join(stage, 'chunks', file), 'utf8'), false));
  }
  for (const file of (await readdir(stage)).filter((f) => f.endsWith('.mjs'))) {
    await writeFile(path.join(outDir, file), finish(await readFile(path.join(stage, file), 'utf8'), true));
  }
  await rm(stage, { recursive: true });
  await writeFile(path.join(outDir, '..', 'functions-meta.json'), JSON.stringify(result.metafile));
  return result.metafile;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = path.resolve(process.argv[2] ?? path.join(root, 'build/functions'));
  const meta = await bundleFunctions(outDir);
  const outputs = Object.entries(meta.outputs).filter(([file]) => file.endsWith('.mjs'));
  const total = outputs.reduce((sum, [, o]) => sum + o.bytes, 0);
  const functions = outputs.filter(([file]) => !file.includes('/chunks/')).length;
  console.log(`bundled ${functions} functions and ${outputs.length - functions} shared chunks into ${path.relative(root, outDir)} (${(total / 1024 / 1024).toFixed(1)} MB in all)`);
}
