/**
 * First-load language (docs/decisions/005-language-detection.md), shipped as a tiny
 * inline script in every page's <head> that has a twin. It never redirects
 * on a first visit (search engines render with an English browser and must
 * see the German pages as they are):
 *
 * 1. an explicit earlier choice (localStorage `i18nextLng`, stored only by
 *    the language button or the suggestion's link) that differs from the
 *    page's language moves to the twin page, keeping query and hash;
 * 2. otherwise, when the browser's first German or English language is the other one
 *    and the suggestion was not dismissed (`langSuggestion` = "dismissed"),
 *    it marks <html data-lang-suggest="en|de">, which shows a small banner
 *    linking the twin page (site-nav.astro); shown from the first paint, so
 *    nothing moves.
 *
 * No loop is possible: only a stored choice moves, and on the page of the
 * stored language nothing moves.
 *
 * The script is a string so the unit test runs exactly what ships.
 */

export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
/** "dismissed" once the visitor closed the language suggestion. */
export const SUGGESTION_STORAGE_KEY = 'langSuggestion';

/** The detection as readable source; language-detection-script.ts minifies it for the page's head. */
export const DETECT = `function (page, twins) {
  try {
    var pick = function (v) {
      v = String(v || '').toLowerCase().slice(0, 2);
      return v === 'de' || v === 'en' ? v : null;
    };
    var other = page === 'de' ? 'en' : 'de';
    var stored = null, dismissed = false;
    try {
      stored = pick(localStorage.getItem('${LANGUAGE_STORAGE_KEY}'));
      dismissed = localStorage.getItem('${SUGGESTION_STORAGE_KEY}') === 'dismissed';
    } catch (e) {}
    var href = twins[other];
    if (stored === other) {
      if (href && href !== location.pathname) location.replace(href + location.search + location.hash);
      return;
    }
    if (stored || dismissed) return;
    var preferred = null;
    var langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (var i = 0; i < langs.length && !preferred; i++) preferred = pick(langs[i]);
    if (preferred === other) document.documentElement.setAttribute('data-lang-suggest', other);
  } catch (e) {}
}`;
