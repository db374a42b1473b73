/**
 * The request form's small plain script (docs/decisions/036-patient-requests.md):
 * no framework, a few KB, so /anfrage stays as light as an informational
 * page. The form works without it (a plain post answered with the page);
 * with it:
 * - the kinds the practice has switched off are not offered, and its
 *   notice shows (GET /api/requests at run time: the page stays static);
 * - the call-back's day is a list of the next five working days;
 * - the form is sent in the background (the same form fields, the answer
 *   as JSON) and each error shows at its field, listed and linked above
 *   the form; the receipt with its reference replaces the form;
 * - a mistyped common email domain gets a one-tap hint (docs/decisions/035).
 */
import type { Lang } from '../../i18n/languages';
import { berlinToday } from '../../lib/berlin-time';
import { callbackDays } from '../../lib/callback-days';
import { attachEmailHint } from '../../lib/email-hint-dom';
import { fieldMessage } from '../../lib/field-message';
import type { RequestKind, RequestOffer } from '../../lib/request-schema';

type Texts = Record<string, string>;

const fill = (text: string, values: Record<string, string>) => text.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/** The call-back's date field as a list of the five days it may be (Berlin's today decides). */
function offerCallbackDays(form: HTMLFormElement, lang: Lang, texts: Texts): void {
  const input = form.querySelector<HTMLInputElement>('input[name="callback_date"]');
  if (!input) return;
  const select = document.createElement('select');
  for (const name of ['id', 'name', 'class', 'aria-required', 'aria-describedby']) {
    const value = input.getAttribute(name);
    if (value !== null) select.setAttribute(name, value);
  }
  const format = new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
  select.add(new Option(texts['requests.form.callbackDateChoose'] ?? '', ''));
  for (const day of callbackDays(berlinToday())) select.add(new Option(format.format(new Date(`${day}T12:00:00Z`)), day, false, input.value === day));
  input.replaceWith(select);
}

/** Hides the kinds the practice does not take now, and shows its notice in the page's language. */
async function applyOffer(form: HTMLFormElement, lang: Lang, texts: Texts, outcome: HTMLElement): Promise<void> {
  let offer: RequestOffer;
  try {
    const response = await fetch('/api/requests', { headers: { accept: 'application/json' } });
    if (!response.ok) return;
    offer = (await response.json()) as RequestOffer;
  } catch {
    // Offline or down: every kind stays offered; sending says what is wrong.
    return;
  }
  const notice = lang === 'en' ? offer.notice_en : offer.notice_de;
  const aside = document.querySelector<HTMLElement>('[data-request-notice]');
  if (notice && aside) {
    aside.querySelector('[data-request-notice-text]')!.textContent = notice;
    aside.hidden = false;
  }
  const smsChoice = document.querySelector<HTMLElement>('[data-sms-choice]');
  if (smsChoice && offer.sms) smsChoice.hidden = false;
  const open = (Object.keys(offer.kinds) as RequestKind[]).filter((kind) => offer.kinds[kind]);
  for (const option of form.querySelectorAll<HTMLElement>('[data-kind-option]')) {
    const closed = !open.includes(option.dataset.kindOption as RequestKind);
    option.hidden = closed;
    const radio = option.querySelector('input')!;
    radio.disabled = closed;
    if (closed) radio.checked = false;
  }
  if (open.length === 0) {
    form.hidden = true;
    show(outcome, 'requests.result.failedTitle', texts['requests.closed.all'] ?? '', texts, false);
  }
}

/** A message in the outcome region (a heading, a text, a list of errors linked to their fields). */
function show(outcome: HTMLElement, titleKey: string, text: string, texts: Texts, success: boolean, errors: Array<{ id: string; text: string }> = []): void {
  outcome.replaceChildren();
  const section = document.createElement('section');
  section.className = `mb-6 space-y-2 rounded-lg border p-4 text-slate-900 ${success ? 'border-brand-600 bg-brand-50' : 'border-amber-300 bg-amber-50'}`;
  section.setAttribute('aria-labelledby', 'request-outcome-title');
  const heading = document.createElement('h2');
  heading.id = 'request-outcome-title';
  heading.className = 'text-lg font-semibold';
  heading.textContent = texts[titleKey] ?? '';
  const paragraph = document.createElement('p');
  paragraph.textContent = text;
  section.append(heading, paragraph);
  if (errors.length) {
    const list = document.createElement('ul');
    list.className = 'list-disc space-y-1 pl-5';
    for (const error of errors) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = `#${error.id}`;
      link.className = 'underline';
      link.textContent = error.text;
      item.append(link);
      list.append(item);
    }
    section.append(list);
  }
  outcome.append(section);
  outcome.focus();
}

/** The control a field error belongs to (a radio group's first radio, a list's first field). */
function controlOf(form: HTMLFormElement, field: string): HTMLElement | null {
  const container = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  return container?.querySelector<HTMLElement>('input:not([type=hidden]), select, textarea') ?? null;
}

/** The label a field's error is listed under. */
function labelOf(form: HTMLFormElement, field: string): string {
  const container = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  if (container?.dataset.label) return container.dataset.label;
  const label = container?.querySelector('legend, label');
  const group = container?.closest('fieldset[data-field^="medications"], details')?.querySelector('fieldset legend');
  const text = (label?.textContent ?? field).replace(/\s*\*\s*$/, '').trim();
  return field.startsWith('medications.') && group && group !== label ? `${group.textContent?.trim()} – ${text}` : text;
}

function clearErrors(form: HTMLFormElement): void {
  for (const note of form.querySelectorAll('[data-error]')) note.remove();
  for (const control of form.querySelectorAll('[aria-invalid]')) {
    control.removeAttribute('aria-invalid');
    const described = control.getAttribute('data-described');
    if (described === null) continue;
    if (described) control.setAttribute('aria-describedby', described);
    else control.removeAttribute('aria-describedby');
    control.removeAttribute('data-described');
  }
}

/** Marks each field in error and writes its message below it; answers the list for the outcome. */
function markErrors(form: HTMLFormElement, errors: Record<string, string[]>, texts: Texts): Array<{ id: string; text: string }> {
  const listed: Array<{ id: string; text: string }> = [];
  for (const [field, keys] of Object.entries(errors)) {
    const message = keys.map((key) => texts[key] ?? texts['requests.errors.invalid']).join(' ');
    const container = form.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
    const control = controlOf(form, field);
    if (container?.closest('details')) container.closest('details')!.open = true;
    const noteId = `request-error-${field.replace(/\./g, '-')}`;
    if (container && control) {
      const note = document.createElement('p');
      note.id = noteId;
      note.dataset.error = '';
      note.className = 'mt-1 text-sm text-red-700';
      note.textContent = message;
      container.append(note);
      // A radio group is marked as the group: its fieldset, whose legend names it (as the server's answer does).
      const controls = control.matches('[type=radio]') ? [container] : [control];
      for (const c of controls) {
        c.setAttribute('data-described', c.getAttribute('aria-describedby') ?? '');
        c.setAttribute('aria-invalid', 'true');
        c.setAttribute('aria-describedby', [c.getAttribute('aria-describedby'), noteId].filter(Boolean).join(' '));
      }
    }
    listed.push({ id: control?.id || noteId, text: fieldMessage(labelOf(form, field), message) });
  }
  return listed;
}

export function bootRequestForm(form: HTMLFormElement): void {
  const lang: Lang = form.dataset.lang === 'en' ? 'en' : 'de';
  const texts = JSON.parse(form.dataset.texts ?? '{}') as Texts;
  const outcome = document.querySelector<HTMLElement>('[data-request-outcome]')!;
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
  offerCallbackDays(form, lang, texts);
  void applyOffer(form, lang, texts, outcome);
  const email = form.querySelector<HTMLInputElement>('input[name="email"]');
  if (email) attachEmailHint(email, { didYouMean: texts['requests.form.emailHint'] ?? '', accept: texts['requests.form.emailHintAccept'] ?? '' });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    clearErrors(form);
    button.disabled = true;
    button.textContent = texts['requests.form.sending'] ?? '';
    const failed = (key: string) => show(outcome, 'requests.result.failedTitle', texts[key] ?? '', texts, false);
    try {
      const response = await fetch(form.action.replace(/#.*$/, ''), {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(new FormData(form) as unknown as Record<string, string>),
      });
      const body = (await response.json().catch(() => ({}))) as { reference?: string; type?: string; kind?: RequestKind; errors?: Record<string, string[]> };
      if (response.status === 201 && body.reference) {
        form.reset();
        form.hidden = true;
        show(outcome, 'requests.result.sentTitle', fill(texts['requests.result.sentText'] ?? '', { reference: body.reference }), texts, true);
        const again = document.createElement('button');
        again.type = 'button';
        again.className = 'font-semibold text-brand-700 underline';
        again.textContent = texts['requests.result.another'] ?? '';
        again.addEventListener('click', () => {
          outcome.replaceChildren();
          form.hidden = false;
          form.querySelector<HTMLElement>('input[name=kind]:not(:disabled)')?.focus();
        });
        outcome.querySelector('section')!.append(again);
      } else if (response.status === 400 && body.errors) {
        show(outcome, 'requests.result.invalidTitle', texts['requests.result.invalidText'] ?? '', texts, false, markErrors(form, body.errors, texts));
      } else if (response.status === 409 && body.type === 'request-kind-closed') {
        failed(`requests.closed.${body.kind}`);
        const option = form.querySelector<HTMLElement>(`[data-kind-option="${body.kind}"]`);
        if (option) {
          option.hidden = true;
          option.querySelector('input')!.disabled = true;
        }
      } else if (response.status === 429) failed('requests.result.rateLimited');
      else if (response.status === 403) failed('requests.result.refused');
      else failed('requests.result.failed');
    } catch {
      failed(navigator.onLine ? 'requests.result.failed' : 'requests.result.offline');
    } finally {
      button.disabled = false;
      button.textContent = texts['requests.form.submit'] ?? '';
    }
  });
}
