/**
 * Build step: gives every built page a CSP <meta> that allows the site's
 * own script files and, by SHA-256, exactly the inline scripts of that page
 * (Astro's island runtime and hydration directives, bundled page scripts
 * Astro inlines, `is:inline` scripts such as language detection).
 *
 * Why not Astro's experimental.csp: it does not hash `is:inline` scripts,
 * and its style hashes would make browsers ignore 'unsafe-inline' for
 * styles, blocking the <style> element the toast library injects at runtime.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { pageScriptPolicy } from '../server/security-headers';

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/** The hashes of a page's inline scripts, as CSP source values (`sha256-…`). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? '';
    if (/\bsrc\s*=/i.test(attributes)) continue;
    // Data blocks (JSON-LD, import maps aside) are never executed.
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (type && !['module', 'text/javascript', 'application/javascript'].includes(type)) continue;
    hashes.push(`sha256-${createHash('sha256').update(match[2] ?? '', 'utf8').digest('base64')}`);
  }
  return hashes;
}

/** The page with its CSP meta right after <meta charset>, before any script. */
export function withScriptPolicyMeta(html: string): string {
  const meta = `<meta http-equiv="content-security-policy" content="${pageScriptPolicy(inlineScriptHashes(html))}">`;
  const charset = /<meta charset="?[^">]+"?\s*\/?>/i.exec(html);
  if (charset) return html.slice(0, charset.index + charset[0].length) + meta + html.slice(charset.index + charset[0].length);
  return html.replace(/<head[^>]*>/i, (head) => head + meta);
}

/** Every built page under `dir`. */
export async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return htmlFiles(full);
      return Promise.resolve(e.name.endsWith('.html') ? [full] : []);
    }),
  );
  return nested.flat();
}

export default function inlineScriptCsp(): AstroIntegration {
  return {
    name: 'inline-script-csp',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const files = await htmlFiles(fileURLToPath(dir));
        for (const file of files) {
          const html = await readFile(file, 'utf8');
          if (html.includes('http-equiv="content-security-policy"')) continue;
          await writeFile(file, withScriptPolicyMeta(html));
        }
        logger.info(`script CSP written into ${files.length} pages`);
      },
    },
  };
}
