/**
 * The language detection (language-detection.ts) as the inline script of a
 * page's <head>, minified at build time: it is most of an informational
 * page's JavaScript budget (3 KB gzip, bench/pages.ts). Build-time only
 * (base-layout.astro), never in a browser bundle.
 */
import { transformSync } from 'esbuild';
import type { Lang } from '../i18n/languages';
import { DETECT } from './language-detection';

// Minified as a named function's body (an unused expression would be dropped), then called inline.
const minified = transformSync(`window.__detect=${DETECT}`, { minify: true, target: 'es2019' })
  .code.trim()
  .replace(/^window\.__detect=/, '')
  .replace(/;$/, '');

export function languageDetectionScript(page: Lang, twins: Record<Lang, string>): string {
  return `(${minified})(${JSON.stringify(page)},${JSON.stringify(twins).replace(/</g, '\\u003c')});`;
}
