/**
 * The link page (/termin/absagen, /en/termin/absagen) in small, as
 * cancel-page.astro writes it: the <noscript> style that hides the island,
 * the island, and the <noscript> part with its heading, the answer's
 * marker, the cancel form without an action and the phone. For tests that
 * have no build.
 */
export function builtCancelPage(lang: 'de' | 'en'): string {
  const [title, heading, button] = lang === 'de' ? ['Termin absagen oder verschieben – Hausarztpraxis Düsseldorf', 'Termin absagen', 'Termin absagen'] : ['Cancel or reschedule – Family Practice Düsseldorf', 'Cancel your appointment', 'Cancel appointment'];
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title><script>console.log("kept")</script>
<noscript><style>[data-cancel-island]{display:none}</style></noscript></head>
<body><header id="site-nav">Praxis</header><main id="main"><div class="mx-auto max-w-2xl px-4 py-10">
<div data-cancel-island><astro-island props="{}"><h1 tabindex="-1">Ihr Termin</h1><div aria-busy="true"></div></astro-island></div>
<noscript id="cancel-no-script"><h1 class="mb-6">${heading}</h1><div id="cancel-result"></div><div class="rounded-lg"><p>Ohne JavaScript …</p>
<form method="post" class="mt-4"><label for="cancel-confirm" class="flex"><input type="checkbox" id="cancel-confirm" name="confirm" required class="h-5"><span>Ja, ich möchte diesen Termin absagen.</span></label>
<button type="submit">${button}</button></form><p>Rufen Sie uns an: <a href="tel:+492111234567">0211 1234567</a></p></div></noscript>
</div></main><footer>Impressum</footer></body></html>`;
}
