/**
 * A built request page in small, as request-page.astro writes it: the
 * <noscript> redirect, the notice, the marker, the form with its kinds
 * (choice and section each), radio groups in fieldsets, a box, a select, a
 * text field with a hint and a textarea. For tests that have no build.
 */
export function builtRequestPage(lang: 'de' | 'en'): string {
  return `<!doctype html><html lang="${lang}"><head><title>Anfrage</title>
<noscript data-no-script-redirect><meta http-equiv="refresh" content="0; url=${lang === 'de' ? '/anfrage/formular' : '/en/request/form'}"></noscript></head><body><main>
<aside data-request-notice hidden aria-labelledby="n"><h2 id="n">Hinweis der Praxis</h2><p data-request-notice-text class="x"></p></aside>
<div id="request-result"></div>
<form action="/api/requests#request-result" method="post">
<fieldset data-field="kind"><legend>Worum geht es?</legend>
<div data-kind-option="prescription"><input type="radio" name="kind" value="prescription" id="request-kind-prescription"></div>
<div data-kind-option="referral"><input type="radio" name="kind" value="referral" id="request-kind-referral"></div>
<div data-kind-option="callback"><input type="radio" name="kind" value="callback" id="request-kind-callback"></div>
</fieldset>
<fieldset data-section="prescription"><input id="request-medications-0-name" name="medications.0.name">
<fieldset data-field="delivery"><legend>Wie möchten Sie das Rezept bekommen?</legend><input type="radio" name="delivery" value="card" id="request-delivery-card"><input type="radio" name="delivery" value="pickup" id="request-delivery-pickup"></fieldset></fieldset>
<fieldset data-section="referral"><textarea id="request-reason" name="reason"></textarea></fieldset>
<fieldset data-section="callback"><fieldset data-field="daypart"><input type="radio" name="daypart" value="morning" id="request-daypart-morning"><input type="radio" name="daypart" value="afternoon" id="request-daypart-afternoon"></fieldset></fieldset>
<input type="checkbox" name="consent" id="request-consent">
<select name="language" id="request-language"><option value="de" selected>Deutsch</option><option value="en">English</option></select>
<input id="request-first_name" name="first_name" aria-describedby="request-first_name-hint">
<input name="website">
</form></main></body></html>`;
}
