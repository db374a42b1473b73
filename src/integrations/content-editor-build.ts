/**
 * Puts the content editor's own chunks (Decap CMS: several MB of
 * JavaScript, one module bundled beforehand, below) into a folder
 * of their own, `_astro/content-editor/`, so that the service worker, which
 * precaches the site's scripts for offline use, leaves them out by name
 * (src/integrations/pwa.ts) and a test can tell them from the public pages'
 * scripts. Rollup's chunking itself is untouched: it already keeps modules
 * that only the editor's dynamic import reaches apart from shared ones.
 *
 * A module is the editor's when no entry reaches it without passing through
 * the editor's loader module (src/islands/content-editor/decap-cms.ts).
 */
import { build as esbuild, type Metafile } from 'esbuild';
import type { Plugin, Rollup } from 'vite';

export const CONTENT_EDITOR_DIR = 'content-editor';

/** The module that imports Decap; only the editor page imports it (dynamically). */
const EDITOR_ROOT = /\/src\/islands\/content-editor\/decap-cms\.tsx?$/;

type ModuleInfo = { isEntry: boolean; importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;

/** The modules every entry reaches without passing through the editor's loader. */
export function sharedModules(moduleIds: Iterable<string>, getModuleInfo: (id: string) => ModuleInfo): Set<string> {
  const shared = new Set<string>();
  const queue = [...moduleIds].filter((id) => getModuleInfo(id)?.isEntry && !EDITOR_ROOT.test(id));
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (shared.has(id) || EDITOR_ROOT.test(id)) continue;
    shared.add(id);
    const info = getModuleInfo(id);
    if (info) queue.push(...info.importedIds, ...info.dynamicallyImportedIds);
  }
  return shared;
}

const AJV_STUB = new URL('../islands/content-editor/config-validator-stub.ts', import.meta.url).pathname;

/** The Vite plugins of the content editor's build (astro.config.mjs). */
export function contentEditorBuild(): Plugin[] {
  return [decapPrebundled(), contentEditorChunks()];
}

/** The one module the editor's loader gets for `decap-cms-app` in a build. */
const DECAP_MODULE = '\0praxis-decap-cms-app';

/**
 * In a build, Decap CMS (about 3,000 modules of its own and its
 * dependencies) reaches Rollup as one module, bundled by esbuild first, as
 * Vite's dev server pre-bundles it: Rollup transformed and chunked each of
 * those modules on every build, more than half of a site build's CPU time
 * (a build's client step read 5,443 modules, 1,873 without Decap). React
 * stays outside, so the editor and the preview share the site's one copy;
 * decap-cms-core's `import AJV from 'ajv'`, and nobody else's, gets the stub
 * (see config-validator-stub.ts). Vite's dev server pre-bundles Decap on
 * its own, where no plugin's resolveId applies: the stub is a build's.
 */
function decapPrebundled(): Plugin {
  let bundled: Promise<string> | null = null;
  return {
    name: 'praxis-decap-prebundled',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (source === 'decap-cms-app' && importer && EDITOR_ROOT.test(importer)) return DECAP_MODULE;
      return null;
    },
    load(id) {
      if (id !== DECAP_MODULE) return null;
      bundled ??= prebundleDecap().then((result) => result.code);
      // Already tree-shaken by esbuild: Rollup takes it whole rather than analysing it again.
      return bundled.then((code) => ({ code, moduleSideEffects: 'no-treeshake' as const }));
    },
  };
}

/** React's packages: the site's own copy, never bundled into Decap's module. */
const REACT = /^react(-dom)?(\/.*)?$/;

/** Decap CMS as one ES module, and esbuild's account of the files it was made of. */
export async function prebundleDecap(): Promise<{ code: string; metafile: Metafile }> {
  const result = await esbuild({
    stdin: { contents: "export { default } from 'decap-cms-app';", resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    outfile: 'decap-cms-app.js',
    // The WebP codecs find their .wasm files beside their modules (new URL(…, import.meta.url)):
    // left to Vite, which emits those files, as before.
    external: ['@jsquash/*'],
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    minify: true,
    legalComments: 'none',
    metafile: true,
    logLevel: 'error',
    plugins: [
      {
        // The site's React, also where Decap's CommonJS dependencies require() it:
        // such a call gets a module that re-exports the external one.
        name: 'praxis-react-from-the-site',
        setup(b) {
          b.onResolve({ filter: REACT }, (args) =>
            args.kind === 'require-call' ? { path: args.path, namespace: 'praxis-react-require' } : { path: args.path, external: true },
          );
          b.onLoad({ filter: /.*/, namespace: 'praxis-react-require' }, (args) => ({
            contents: `export * from ${JSON.stringify(args.path)};\nexport { default } from ${JSON.stringify(args.path)};`,
            loader: 'js',
          }));
        },
      },
      {
        name: 'praxis-decap-config-validator-stub',
        setup(b) {
          b.onResolve({ filter: /^ajv$/ }, (args) => (args.importer.includes('/node_modules/decap-cms-core/') ? { path: AJV_STUB } : undefined));
        },
      },
    ],
  });
  return { code: result.outputFiles[0]!.text, metafile: result.metafile };
}

function contentEditorChunks(): Plugin {
  let shared: Set<string> | null = null;
  let editorInGraph = false;
  return {
    name: 'praxis-content-editor-chunk',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()];
      editorInGraph = ids.some((id) => EDITOR_ROOT.test(id));
      shared = editorInGraph ? sharedModules(ids, (id) => this.getModuleInfo(id)) : null;
    },
    outputOptions(options) {
      const fallback = options.chunkFileNames ?? '[name]-[hash].js';
      const chunkFileNames = (chunk: Rollup.PreRenderedChunk): string => {
        const own = editorInGraph && chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => !shared!.has(id));
        const name = typeof fallback === 'function' ? fallback(chunk) : fallback;
        // "_astro/[name].[hash].js" → "_astro/content-editor/[name].[hash].js"
        return own ? name.replace(/([^/]*)$/, `${CONTENT_EDITOR_DIR}/$1`) : name;
      };
      return { ...options, chunkFileNames };
    },
  };
}
