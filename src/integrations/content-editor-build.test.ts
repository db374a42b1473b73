/**
 * The content editor's build: the editor's loader gets Decap CMS as one
 * module, bundled beforehand, that uses the site's React (also where
 * Decap's CommonJS dependencies require() it), leaves the WebP codecs and
 * their .wasm files to Vite, and carries the Ajv stub instead of Ajv.
 */
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { contentEditorBuild, prebundleDecap } from './content-editor-build';

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const call = (plugin: Plugin, hook: 'resolveId' | 'load', ...args: unknown[]) => {
  const h = plugin[hook] as Hook | { handler: Hook };
  return (typeof h === 'function' ? h : h.handler).apply({}, args);
};

describe('Decap CMS in the content editor build', () => {
  const prebundled = contentEditorBuild().find((p) => p.name === 'praxis-decap-prebundled')!;
  const loader = '/site/src/islands/content-editor/decap-cms.ts';

  it("gives only the editor's loader the one bundled module", () => {
    expect(prebundled.apply).toBe('build');
    expect(call(prebundled, 'resolveId', 'decap-cms-app', loader)).toEqual(expect.any(String));
    expect(call(prebundled, 'resolveId', 'decap-cms-app', '/site/src/islands/other.ts')).toBeNull();
    expect(call(prebundled, 'resolveId', 'react', loader)).toBeNull();
  });

  it("imports the site's React and the WebP codecs, and never require()s React", async () => {
    const id = call(prebundled, 'resolveId', 'decap-cms-app', loader) as string;
    const { code } = (await call(prebundled, 'load', id)) as { code: string };
    expect(code.length).toBeGreaterThan(1_000_000);
    // Static and dynamic imports of a package (minified: from"react", import("@jsquash/webp")).
    const imported = new Set([...code.matchAll(/\b(?:from|import)\s*\(?\s*"([@\w][\w@./-]*)"/g)].map((m) => m[1]));
    expect(imported).toContain('react');
    expect(imported).toContain('react-dom');
    expect([...imported].some((s) => s!.startsWith('@jsquash/webp'))).toBe(true);
    // Only React's packages and the codecs stay outside.
    expect([...imported].filter((s) => !/^(react(-dom)?(\/.*)?|@jsquash\/.*)$/.test(s!))).toEqual([]);
    // React is never require()d: esbuild's stand-in for require() of an outside package throws in the browser.
    expect(code.match(/(?<!import)\b[\w$]+\(\s*"react(?:-dom)?(?:\/[^"]*)?"\s*\)/g)).toBeNull();
  }, 60_000);

  it("has the stub where decap-cms-core imports Ajv to check its configuration (Ajv compiles with new Function, which the site's CSP forbids)", async () => {
    const { metafile } = await prebundleDecap();
    const configSchema = Object.entries(metafile.inputs).find(([file]) => file.endsWith('node_modules/decap-cms-core/dist/esm/constants/configSchema.js'));
    expect(configSchema).toBeDefined();
    expect(configSchema![1].imports.filter((i) => i.original === 'ajv').map((i) => i.path)).toEqual(['src/islands/content-editor/config-validator-stub.ts']);
  }, 60_000);
});
