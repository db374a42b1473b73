/**
 * Puts the content editor's own chunks (Decap CMS: several MB of
 * JavaScript in a few dozen chunks such as css.js or xml.js) into a folder
 * of their own, `_astro/content-editor/`, so that the service worker, which
 * precaches the site's scripts for offline use, leaves them out by name
 * (src/integrations/pwa.ts) and a test can tell them from the public pages'
 * scripts. Rollup's chunking itself is untouched: it already keeps modules
 * that only the editor's dynamic import reaches apart from shared ones.
 *
 * A module is the editor's when no entry reaches it without passing through
 * the editor's loader module (src/islands/content-editor/decap-cms.ts).
 */
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

/** decap-cms-core's `import AJV from 'ajv'` → the stub (see config-validator-stub.ts); nobody else's. */
function decapConfigValidatorStub(): Plugin {
  return {
    name: 'praxis-decap-config-validator-stub',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === 'ajv' && importer?.includes('/node_modules/decap-cms-core/')) return AJV_STUB;
      return null;
    },
  };
}

/** The Vite plugins of the content editor's build (astro.config.mjs). */
export function contentEditorBuild(): Plugin[] {
  return [decapConfigValidatorStub(), contentEditorChunks()];
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
