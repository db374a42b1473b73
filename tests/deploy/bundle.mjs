/**
 * Zips pre-bundled functions as Netlify's build does: @netlify/zip-it-and-ship-it
 * (the copy netlify-cli installs, scripts/deploy-tools.ts) with netlify.toml's
 * [functions] settings, under Node 22 (the bundler needs 22.12+). For the
 * cold-start benchmark; the deploy test runs `netlify build` itself.
 *
 * Usage: node bundle.mjs <zip-it-and-ship-it main.js> <functions dir> <outDir>.
 * Prints the manifest path on success.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse } from 'smol-toml';

const [zisiMain, functionsDir, outDir] = process.argv.slice(2);
const { zipFunctions } = await import(pathToFileURL(zisiMain).href);
const root = path.resolve(import.meta.dirname, '../..');
const out = path.resolve(outDir);
const toml = parse(await readFile(path.join(root, 'netlify.toml'), 'utf8'));
const functions = toml.functions ?? {};

// netlify.toml's [functions] keys as Netlify's build hands them to the bundler.
const KEYS = {
  included_files: 'includedFiles',
  external_node_modules: 'externalNodeModules',
  node_bundler: 'nodeBundler',
  ignored_node_modules: 'ignoredNodeModules',
};
const config = { nodeVersion: String(toml.build?.environment?.NODE_VERSION ?? '') };
for (const [key, value] of Object.entries(functions)) {
  if (key === 'directory') continue;
  if (!(key in KEYS)) throw new Error(`netlify.toml [functions].${key}: not mapped by the deploy test`);
  config[KEYS[key]] = value;
}

const results = await zipFunctions([path.resolve(functionsDir)], out, {
  basePath: root,
  repositoryRoot: root,
  archiveFormat: 'zip',
  config: { '*': config },
  manifest: path.join(out, 'manifest.json'),
  parallelLimit: 2,
});
if (results.length === 0) throw new Error('no functions bundled');
console.log(path.join(out, 'manifest.json'));
