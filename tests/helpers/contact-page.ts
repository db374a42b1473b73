/**
 * The parts of a built contact page (/kontakt, /en/kontakt) that the form's
 * no-JavaScript answer uses, as Astro and React write them: the title, the
 * site's header and footer, an inline script, the outcome's marker and the
 * server-rendered form. For tests that have no build.
 */
export function builtContactPage(lang: 'de' | 'en'): string {
  const [title, heading] = lang === 'de' ? ['Kontakt – Hausarztpraxis Düsseldorf', 'Kontakt'] : ['Contact – Family Practice Düsseldorf', 'Contact'];
  return `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><title>${title}</title><script>console.log("kept")</script></head>
<body><header id="site-nav">Praxis</header><main id="main"><h1>${heading}</h1><section><div class="mt-6"><div id="contact-result"></div>
<astro-island props="{&quot;x&quot;:1}"><form aria-label="Kontaktformular" action="/api/contact#contact-result" method="post"><input type="hidden" name="language" value="${lang}"/>
<label for="«R1»-name">Name</label><input id="«R1»-name" type="text" maxLength="100" class="c" name="name"/>
<input id="«R1»-email" type="email" name="email"/><input id="«R1»-phone" type="tel" name="phone"/><input id="«R1»-subject" type="text" name="subject"/>
<textarea id="«R1»-message" rows="5" name="message"></textarea><input id="«R1»-website" type="text" name="website"/><button type="submit">Senden</button></form></astro-island>
</div></section></main><footer>Impressum</footer></body></html>`;
}
