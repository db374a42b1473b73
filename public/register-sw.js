// Registers the service worker (dist/sw.js, built by @vite-pwa/astro; see
// src/integrations/pwa.ts). Plain script, external so the CSP needs no hash.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', function () {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(function () {
      // No worker means no offline copy; the site works as before.
    });
  });
}
