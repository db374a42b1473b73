/**
 * First-load language detection (DESIGN.md "Language"), shipped as a tiny
 * inline script in every page's <head> that has a twin:
 *
 * 1. the stored choice (localStorage `i18nextLng`, set by the flag button),
 * 2. else the browser's languages, first de* or en* wins,
 * 3. else the page's own lang (stay).
 *
 * A German page moves to its English twin when the detected language is
 * English; an English page moves to its German twin only for a stored choice
 * of German (someone who opened an English link without choosing keeps it).
 * That asymmetry makes a loop impossible: the English page only leaves for
 * a stored "de", and with a stored "de" the German page never leaves.
 *
 * The script is a string so the unit test runs exactly what ships.
 */
import type { Lang } from '../i18n/i18n';

export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

const DETECT = `function (page, twins) {
  try {
    var pick = function (v) {
      v = String(v || '').toLowerCase().slice(0, 2);
      return v === 'de' || v === 'en' ? v : null;
    };
    var stored = null;
    try { stored = pick(localStorage.getItem('${LANGUAGE_STORAGE_KEY}')); } catch (e) {}
    var target = stored;
    if (!target) {
      var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
      for (var i = 0; i < langs.length && !target; i++) target = pick(langs[i]);
    }
    var move = page === 'de' ? target === 'en' : stored === 'de';
    var href = twins[page === 'de' ? 'en' : 'de'];
    if (move && href && href !== location.pathname) location.replace(href + location.search + location.hash);
  } catch (e) {}
}`;

export function languageDetectionScript(page: Lang, twins: Record<Lang, string>): string {
  return `(${DETECT.replace(/\s*\n\s*/g, ' ')})(${JSON.stringify(page)},${JSON.stringify(twins).replace(/</g, '\\u003c')});`;
}
