/**
 * Code imports a library by the path of what it uses, never its barrel
 * (docs/decisions/023). `import "date-fns"` alone read 617 files
 * (1.5 s of a cold start) before functions were pre-bundled; the bundler
 * now tree-shakes, but tests, the dev server and the local server still
 * load sources as written.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const BARRELS = ['date-fns', 'date-fns/locale', '@date-fns/tz/index'];
const FOLDERS = ['src', 'netlify/functions', 'db', 'scripts'];

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.(ts|tsx|mts|js|mjs|astro)$/.test(entry.name)) out.push(path.join(entry.parentPath, entry.name));
  }
  return out;
}

describe('imports', () => {
  it('never load a library barrel', async () => {
    const offenders: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of await sources(path.resolve(folder))) {
        const text = await readFile(file, 'utf8');
        for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
          if (BARRELS.includes(match[1]!)) offenders.push(`${path.relative(process.cwd(), file)}: ${match[1]}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  // Node's own ESM loader (the local server, Playwright loading server code) refuses both of these;
  // tsx, vitest and the bundler would hide them.
  it("name a JSON module's type and a package's deep file by its file name", async () => {
    const offenders: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of await sources(path.resolve(folder))) {
        const text = await readFile(file, 'utf8');
        for (const match of text.matchAll(/^import\s[^;]*?from\s+['"]([^'"]+)['"]([^;\n]*)/gm)) {
          const [, specifier, rest] = match as unknown as [string, string, string];
          if (specifier.endsWith('.json') && !/with\s*\{\s*type:\s*'json'\s*\}/.test(rest)) offenders.push(`${path.relative(process.cwd(), file)}: ${specifier} without its json type`);
          if (/^(@[^/]+\/)?[^./][^/]*\/dist\/.+/.test(specifier) && !/\.(c|m)?js$/.test(specifier)) offenders.push(`${path.relative(process.cwd(), file)}: ${specifier} without its file name`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
