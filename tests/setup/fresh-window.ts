/**
 * The islands' files share one jsdom window per worker (vitest's
 * `isolate: false`, for speed). What a file leaves in it must not reach the
 * next file: each starts at the site's root address, with no title, no
 * stored values and no cookies, as a fresh window would.
 */
window.history.replaceState(null, '', '/');
document.title = '';
window.localStorage.clear();
window.sessionStorage.clear();
for (const cookie of document.cookie.split(';')) {
  const name = cookie.split('=')[0]!.trim();
  if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}
