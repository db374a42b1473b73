/**
 * /termin/warteliste (and /en/…) without React (docs/decisions/032-waitlist.md,
 * docs/decisions/038-waitlist-offers-for-freed-times.md): a small module
 * script draws and runs every view of the page, so the page loads no more
 * JavaScript than this file (the booking page's budget):
 * - `?offer=` (the offer email): the freed time, the current booking if any,
 *   "Übernehmen" and "Von der Liste nehmen"; "Schon vergeben" with the next
 *   fitting free time, taken with the same link; once the link became a
 *   booking: "Dieser Termin gehört Ihnen: Do 3.12., 09:50" with its link;
 * - `?leave=` (every waitlist email): off the list;
 * - `?token=` (a booking's link), `?booking=` (the success screen) or
 *   `?type=` (the wizard found nothing): the form, naming the type and the
 *   current booking, offering only weekdays with time windows and only the
 *   parts of the day in which the ticked weekdays have start times; after
 *   joining, the fitting times free right now, to take at once.
 * Tokens live only in the address bar: read here, never at build time.
 * The page's texts (its language only) come in the root's data-texts.
 */
import { localizedPath, type Lang } from '../../i18n/languages';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { isCancellationToken } from '../../lib/cancellation-token';
import { clockTime, longDate, shortWhen } from '../../lib/plain-dates';
import { typedDateToIso } from '../../lib/typed-date';
import { attachEmailHint } from '../../lib/email-hint-dom';

type Texts = Record<string, string>;

interface Slot {
  appointment_date: string;
  appointment_time: string;
}

interface Offer extends Slot {
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  current: { date: string; time: string } | null;
  taken_by_you?: true;
  booking?: { reference: string; token: string | null };
}

interface Context {
  /** Whether the practice sends SMS (docs/decisions/043-sms-second-channel.md): the form offers offers by SMS. */
  sms?: boolean;
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  weekdays: number[];
  /** Parts of the day with start times (absent from a server of the release before: both). */
  dayparts?: Daypart[];
  dayparts_by_weekday?: Record<number, Daypart[]>;
  last_date: string;
  current: { date: string; time: string } | null;
}

type Daypart = 'morning' | 'afternoon';
const DAYPARTS: Daypart[] = ['morning', 'afternoon'];

type Proof = { token: string } | { booking_id: string } | { appointment_type_id: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PRIMARY = 'min-h-11 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70';
const SECONDARY = 'min-h-11 rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-70';
const INPUT = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600';
const BOX = 'rounded-lg border p-4 sm:p-6';
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

type Child = Node | string | null | false | undefined;

/** A DOM element with attributes (`class`, `for`, data and aria ones as written; `on…` as listeners) and children. */
function h(tag: string, attrs: Record<string, unknown> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value as EventListener);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

async function send(url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, body === undefined ? { headers: { accept: 'application/json' } } : { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) });
  const json = res.status === 204 ? {} : ((await res.json().catch(() => ({}))) as Record<string, unknown>);
  return { status: res.status, json };
}

export function bootWaitlist(root: HTMLElement): void {
  const lang: Lang = root.dataset.lang === 'en' ? 'en' : 'de';
  const texts = JSON.parse(root.dataset.texts ?? '{}') as Texts;
  const phone = { display: root.dataset.phoneDisplay ?? '', href: root.dataset.phoneHref ?? '' };
  const heading = root.querySelector('h1')!;
  const body = root.querySelector<HTMLElement>('[data-waitlist-body]')!;
  const t = (key: string, values: Record<string, string> = {}) => (texts[key] ?? key).replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
  const when = (s: Slot) => shortWhen(s.appointment_date, s.appointment_time, lang);
  const typeName = (o: { type_name: string; type_name_en: string | null }) =>
    // A German name standing in for a missing English one is marked as German (src/lib/type-text.ts).
    lang === 'en' && o.type_name_en ? h('span', {}, o.type_name_en) : h('span', lang === 'en' ? { lang: 'de' } : {}, o.type_name);

  /** Shows a view: the heading's text, the body's content; focus on the heading after the first. */
  let shown = false;
  function show(titleKey: string, ...content: Child[]) {
    heading.textContent = t(titleKey);
    body.replaceChildren(...(content.filter(Boolean) as Array<Node | string>));
    if (shown) heading.focus();
    shown = true;
  }
  const bookNew = () =>
    h('p', { class: 'mt-4' }, h('a', { class: 'font-semibold text-brand-800 underline', href: localizedPath('/termin', lang) }, t('cancel.bookNew')), ' · ', h('a', { href: phone.href }, phone.display));
  const message = (titleKey: string, key: string) => show(titleKey, h('div', { role: 'alert', class: `${BOX} border-amber-300 bg-amber-50` }, h('p', {}, t(key)), bookNew()));
  const failed = (titleKey: string) => message(titleKey, 'waitlist.offer.error');

  const details = (o: Offer) =>
    h(
      'dl',
      { class: 'grid grid-cols-[auto_1fr] gap-x-4 gap-y-1' },
      h('dt', { class: 'font-medium text-slate-600' }, t('summary.type')),
      h('dd', {}, typeName(o)),
      h('dt', { class: 'font-medium text-slate-600' }, t('summary.date')),
      h('dd', {}, longDate(o.appointment_date, lang)),
      h('dt', { class: 'font-medium text-slate-600' }, t('summary.time')),
      h('dd', {}, clockTime(o.appointment_time, lang)),
      o.current && h('dt', { class: 'font-medium text-slate-600' }, t('waitlist.offer.current')),
      o.current && h('dd', {}, h('s', {}, `${longDate(o.current.date, lang)}, ${clockTime(o.current.time, lang)}`)),
    );

  /** The booking an offer or a free time became: "Dieser Termin gehört Ihnen: Do 3.12., 09:50", its number and link. */
  function yours(slot: Slot, booking?: { reference?: string; token?: string | null } | null, justTaken = false) {
    const manage = booking?.token ? `${localizedPath('/termin/absagen', lang)}?token=${encodeURIComponent(booking.token)}` : null;
    show(
      'waitlist.offer.yoursTitle',
      h(
        'div',
        { role: 'status', class: `${BOX} border-brand-600 bg-brand-50` },
        h('p', { class: 'font-semibold' }, t('waitlist.offer.yours', { when: when(slot) })),
        booking?.reference && h('p', { class: 'mt-2' }, t('waitlist.offer.reference', { reference: booking.reference })),
        justTaken && h('p', { class: 'mt-2' }, t('waitlist.offer.done')),
        manage && h('p', { class: 'mt-4' }, h('a', { class: 'font-semibold text-brand-800 underline', href: manage }, t('waitlist.offer.manage'))),
      ),
    );
  }

  /** POST /api/waitlist/offer with an offer's or the entry's token (and a time other than the offer's). */
  const take = (token: string, slot?: Slot) => send('/api/waitlist/offer', slot ? { token, appointment_date: slot.appointment_date, appointment_time: slot.appointment_time } : { token });

  async function answerTake(res: { status: number; json: Record<string, unknown> }, token: string, slot: Slot) {
    const booking = res.json.booking as { reference?: string } | undefined;
    if (res.status === 200) return yours(slot, booking, true);
    if (res.status === 409 && res.json.type === 'taken') return taken(token, (res.json.next as Slot | null) ?? null);
    if (res.status === 410) return message('waitlist.offer.title', 'waitlist.offer.expired');
    failed('waitlist.offer.title');
  }

  /** "Schon vergeben": the patient stays on the list; the next fitting free time, taken with the same link. */
  function taken(token: string, next: Slot | null) {
    const button = next && h('button', { type: 'button', class: `${PRIMARY} mt-2` }, t('waitlist.offer.nextTake', { when: when(next) }));
    button?.addEventListener('click', async () => {
      button.setAttribute('disabled', '');
      try {
        await answerTake(await take(token, next!), token, next!);
      } catch {
        failed('waitlist.offer.title');
      }
    });
    show(
      'waitlist.offer.takenTitle',
      h('div', { role: 'status', class: `${BOX} border-amber-300 bg-amber-50` }, h('p', {}, t('waitlist.offer.taken')), next && h('p', { class: 'mt-4 font-medium' }, t('waitlist.offer.next')), button),
    );
  }

  function offerView(token: string, offer: Offer) {
    const takeButton = h('button', { type: 'button', class: PRIMARY }, t('waitlist.offer.take'));
    const leaveButton = h('button', { type: 'button', class: SECONDARY }, t('waitlist.offer.decline'));
    const notice = h('p', { role: 'alert', class: 'mt-4 hidden rounded-md border border-amber-300 bg-amber-50 p-3' });
    takeButton.addEventListener('click', async () => {
      takeButton.setAttribute('disabled', '');
      leaveButton.setAttribute('disabled', '');
      takeButton.textContent = t('waitlist.offer.taking');
      try {
        await answerTake(await take(token), token, offer);
      } catch {
        takeButton.removeAttribute('disabled');
        leaveButton.removeAttribute('disabled');
        takeButton.textContent = t('waitlist.offer.take');
        notice.textContent = t('waitlist.offer.error');
        notice.classList.remove('hidden');
      }
    });
    leaveButton.addEventListener('click', () => void leave(token));
    show(
      'waitlist.offer.title',
      h('div', { class: `${BOX} border-slate-200` }, h('p', { class: 'mb-4 text-slate-700' }, t('waitlist.offer.intro')), details(offer), h('div', { class: 'mt-6 flex flex-col gap-3 sm:flex-row' }, takeButton, leaveButton), notice),
    );
  }

  async function loadOffer(token: string) {
    try {
      const res = await send(`/api/waitlist/offer?${new URLSearchParams({ token })}`);
      const offer = res.json as unknown as Offer;
      if (res.status === 200 && offer.taken_by_you) return yours(offer, offer.booking);
      if (res.status === 200) return offerView(token, offer);
      if (res.status === 409 && res.json.type === 'taken') return taken(token, (res.json.next as Slot | null) ?? null);
      if (res.status === 410) return message('waitlist.offer.title', 'waitlist.offer.expired');
      if (res.status === 404 || res.status === 400) return message('waitlist.offer.title', 'waitlist.offer.unknown');
      failed('waitlist.offer.title');
    } catch {
      failed('waitlist.offer.title');
    }
  }

  async function leave(token: string) {
    try {
      const res = await send('/api/waitlist/leave', { token });
      if (res.status !== 204) return failed('waitlist.offer.decline');
      show('waitlist.offer.decline', h('div', { role: 'status', class: `${BOX} border-brand-600 bg-brand-50` }, h('p', {}, t('waitlist.leave.done')), bookNew()));
    } catch {
      failed('waitlist.offer.decline');
    }
  }

  function leaveView(token: string) {
    const button = h('button', { type: 'button', class: `${PRIMARY} mt-4` }, t('waitlist.offer.decline'));
    button.addEventListener('click', () => {
      button.setAttribute('disabled', '');
      void leave(token);
    });
    show('waitlist.offer.decline', h('div', { class: `${BOX} border-slate-200` }, h('p', {}, t('waitlist.leave.confirm')), button));
  }

  /** After joining: the fitting times free right now, each taken at once with the entry's token. */
  function joined(entryToken: string, free: Slot[]) {
    const status = h('p', { role: 'status', class: `${BOX} border-brand-600 bg-brand-50 text-slate-900` }, t('waitlist.ask.done'));
    if (!free.length) return show('waitlist.ask.title', status);
    const notice = h('p', { role: 'status', class: 'mt-3 text-slate-700' });
    const list = h('ul', { class: 'mt-3 flex flex-col gap-2 sm:flex-row sm:flex-wrap' });
    for (const slot of free) {
      const button = h('button', { type: 'button', class: SECONDARY }, t('waitlist.ask.freeNowTake', { when: when(slot) }));
      button.addEventListener('click', async () => {
        for (const b of list.querySelectorAll('button')) b.setAttribute('disabled', '');
        try {
          const res = await take(entryToken, slot);
          if (res.status === 409 && res.json.type === 'taken') {
            button.closest('li')!.replaceChildren(h('s', { class: 'px-3 py-2' }, when(slot)));
            notice.textContent = t('waitlist.ask.freeNowGone');
            for (const b of list.querySelectorAll('button')) b.removeAttribute('disabled');
            return;
          }
          await answerTake(res, entryToken, slot);
        } catch {
          failed('waitlist.ask.title');
        }
      });
      list.append(h('li', {}, button));
    }
    show(
      'waitlist.ask.title',
      status,
      h('section', { class: 'mt-6', 'aria-labelledby': 'waitlist-free-now' }, h('h2', { id: 'waitlist-free-now', class: 'text-xl font-semibold text-slate-900' }, t('waitlist.ask.freeNow')), h('p', { class: 'mt-1 text-slate-700' }, t('waitlist.ask.freeNowIntro')), list, notice),
    );
  }

  function form(proof: Proof, context: Context) {
    const withDetails = 'appointment_type_id' in proof;
    const today = berlinToday();
    const last = context.last_date;
    const until = context.current && context.current.date < last ? context.current.date : addDaysToDate(today, 7) < last ? addDaysToDate(today, 7) : last;
    const field = (name: string, label: string, input: HTMLElement, hint?: string) =>
      h(
        'div',
        { 'data-field': name },
        h('label', { for: `waitlist-${name}`, class: 'block font-medium' }, label),
        input,
        hint && h('p', { id: `waitlist-${name}-hint`, class: 'mt-1 text-sm text-slate-600' }, hint),
      );
    const input = (name: string, attrs: Record<string, unknown> = {}) => h('input', { id: `waitlist-${name}`, name, class: INPUT, ...attrs });
    // A mistyped common domain gets a one-tap hint (docs/decisions/035).
    const emailInput = input('email', { type: 'email', autocomplete: 'email' }) as HTMLInputElement;
    attachEmailHint(emailInput, { didYouMean: t('bookingForm.emailHint'), accept: t('bookingForm.emailHintAccept') });
    // Only the parts of the day in which the type has start times (all, from a server that does not say).
    const dayparts = context.dayparts?.length ? context.dayparts : DAYPARTS;
    const check = (name: string, value: string, label: string) =>
      h('label', { class: 'inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3' }, h('input', { type: 'checkbox', name, value }), label);
    const error = h('p', { role: 'alert', class: 'hidden rounded-md border border-amber-300 bg-amber-50 p-3 text-slate-900' });
    const submit = h('button', { type: 'submit', class: PRIMARY }, t('waitlist.ask.submit'));
    const el = h(
      'form',
      { novalidate: true, class: 'space-y-4', 'aria-label': t('waitlist.ask.title') },
      h(
        'dl',
        { class: 'grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg border border-slate-200 p-4' },
        h('dt', { class: 'font-medium text-slate-600' }, t('waitlist.ask.forType')),
        h('dd', {}, typeName(context)),
        context.current && h('dt', { class: 'font-medium text-slate-600' }, t('waitlist.ask.current')),
        context.current && h('dd', {}, shortWhen(context.current.date, context.current.time, lang)),
      ),
      h(
        'div',
        { class: 'grid gap-4 sm:grid-cols-2' },
        field('from', t('waitlist.ask.from'), input('from', { type: 'date', value: today, min: today, max: last })),
        field('to', t('waitlist.ask.to'), input('to', { type: 'date', value: until, min: today, max: last })),
      ),
      h(
        'fieldset',
        { 'data-field': 'weekdays' },
        h('legend', { class: 'font-medium' }, t('waitlist.ask.weekdays')),
        h('div', { class: 'mt-1 flex flex-wrap gap-2' }, ...context.weekdays.map((d) => check('weekdays', String(d), t(`waitlist.weekday.${d}`)))),
        h('p', { class: 'mt-1 text-sm text-slate-600' }, t('waitlist.ask.anyOfTheseWeekdays')),
      ),
      dayparts.length > 1
        ? h(
            'fieldset',
            { 'data-field': 'dayparts' },
            h('legend', { class: 'font-medium' }, t('waitlist.ask.dayparts')),
            h('div', { class: 'mt-1 flex flex-wrap gap-2' }, ...dayparts.map((part) => check('dayparts', part, t(`waitlist.ask.${part}`)))),
          )
        : h('p', { 'data-field': 'dayparts', class: 'text-slate-700' }, t(dayparts[0] === 'afternoon' ? 'waitlist.ask.onlyAfternoon' : 'waitlist.ask.onlyMorning')),
      withDetails &&
        h(
          'div',
          { class: 'grid gap-4 sm:grid-cols-2' },
          field('first_name', `${t('bookingForm.firstName')} *`, input('first_name', { autocomplete: 'given-name' })),
          field('last_name', `${t('bookingForm.lastName')} *`, input('last_name', { autocomplete: 'family-name' })),
          field(
            'birth_date',
            `${t('bookingForm.birthDate')} *`,
            input('birth_date', { inputmode: 'numeric', autocomplete: 'bday', placeholder: t('bookingForm.birthDatePlaceholder'), 'aria-describedby': 'waitlist-birth_date-hint' }),
            t('bookingForm.birthDateHint'),
          ),
          field('phone', `${t('bookingForm.phone')} *`, input('phone', { type: 'tel', autocomplete: 'tel' })),
          h('div', { class: 'sm:col-span-2' }, field('email', `${t('bookingForm.email')} *`, emailInput)),
          h(
            'div',
            { class: 'sm:col-span-2', 'data-field': 'consent' },
            h(
              'label',
              { class: 'flex items-start gap-2' },
              h('input', { type: 'checkbox', class: 'mt-1', name: 'consent', id: 'waitlist-consent' }),
              h(
                'span',
                {},
                `${t('bookingForm.consentBefore')} `,
                h('a', { href: localizedPath('/datenschutz', lang), target: '_blank', rel: 'noopener', class: 'underline' }, t('bookingForm.consentLink')),
                ` ${t('bookingForm.consentAfter')} *`,
              ),
            ),
          ),
        ),
      context.sms === true &&
        h(
          'div',
          { 'data-field': 'sms' },
          h(
            'label',
            { class: 'flex items-start gap-2' },
            h('input', { type: 'checkbox', class: 'mt-1', name: 'sms', id: 'waitlist-sms', 'aria-describedby': 'waitlist-sms-hint' }),
            h('span', {}, t('waitlist.ask.sms')),
          ),
          h('p', { id: 'waitlist-sms-hint', class: 'mt-1 text-sm text-slate-600' }, t('waitlist.ask.smsHint')),
        ),
      h('div', { 'data-field': 'appointment_type_id' }),
      h('p', { class: 'text-sm text-slate-600' }, t('waitlist.ask.kept')),
      error,
      submit,
    ) as HTMLFormElement;

    // Ticking weekdays narrows the parts of the day to those these weekdays have start times in.
    const byWeekday = context.dayparts_by_weekday;
    if (byWeekday && dayparts.length > 1) {
      const narrow = () => {
        const ticked = [...el.querySelectorAll<HTMLInputElement>('input[name="weekdays"]:checked')].map((c) => Number(c.value));
        const days = ticked.length ? ticked : context.weekdays;
        for (const box of el.querySelectorAll<HTMLInputElement>('input[name="dayparts"]')) {
          const offered = days.some((d) => byWeekday[d]?.includes(box.value as Daypart));
          const label = box.closest('label')!;
          label.hidden = !offered;
          if (!offered) box.checked = false;
        }
      };
      for (const box of el.querySelectorAll('input[name="weekdays"]')) box.addEventListener('change', narrow);
    }

    /** Shows each field's first message under it (and the first invalid field focused). */
    function showErrors(errors: Record<string, string[]>) {
      for (const old of el.querySelectorAll('[data-error]')) old.remove();
      for (const bad of el.querySelectorAll('[aria-invalid]')) bad.removeAttribute('aria-invalid');
      let first: HTMLElement | null = null;
      for (const [name, keys] of Object.entries(errors)) {
        // A booking's number (no phone field here) that takes no SMS: said at the SMS choice.
        const box = el.querySelector<HTMLElement>(`[data-field="${name.split('.')[0]}"]`) ?? (name === 'phone' ? el.querySelector<HTMLElement>('[data-field="sms"]') : null);
        if (!box || !keys[0]) continue;
        const id = `waitlist-${name.split('.')[0]}-error`;
        box.append(h('p', { id, 'data-error': true, class: 'mt-1 text-sm text-red-700' }, t(keys[0])));
        const control = box.querySelector<HTMLElement>('input');
        if (control) {
          control.setAttribute('aria-invalid', 'true');
          control.setAttribute('aria-describedby', [control.getAttribute('aria-describedby'), id].filter(Boolean).join(' '));
        }
        first ??= control;
      }
      first?.focus();
    }

    el.addEventListener('submit', async (event) => {
      event.preventDefault();
      const data = new FormData(el);
      const value = (name: string) => String(data.get(name) ?? '').trim();
      const request: Record<string, unknown> = {
        ...proof,
        from: value('from'),
        to: value('to'),
        weekdays: data.getAll('weekdays').map(Number),
        dayparts: data.getAll('dayparts').map(String),
        ...(data.get('sms') !== null ? { sms: true } : {}),
      };
      if (withDetails) {
        const birth = value('birth_date');
        Object.assign(request, {
          first_name: value('first_name'),
          last_name: value('last_name'),
          // As typed when it is none of the page's shapes: the server names the field.
          birth_date: typedDateToIso(birth, lang) ?? birth,
          phone: value('phone'),
          email: value('email'),
          consent: data.get('consent') !== null,
          language: lang,
        });
      }
      submit.setAttribute('disabled', '');
      submit.textContent = t('waitlist.ask.submitting');
      error.classList.add('hidden');
      try {
        const res = await send('/api/waitlist', request);
        if (res.status === 201) return joined(String(res.json.token), (res.json.free_times as Slot[] | undefined) ?? []);
        if (res.status === 409 && res.json.type === 'already-waiting') return show('waitlist.ask.title', h('p', { role: 'status', class: `${BOX} border-brand-600 bg-brand-50` }, t('waitlist.ask.already')));
        if (res.status === 400 && res.json.errors) showErrors(res.json.errors as Record<string, string[]>);
        else {
          error.textContent = res.status === 429 ? t('toast.rateLimited') : t('waitlist.offer.error');
          error.classList.remove('hidden');
        }
      } catch {
        error.textContent = t('waitlist.offer.error');
        error.classList.remove('hidden');
      }
      submit.removeAttribute('disabled');
      submit.textContent = t('waitlist.ask.submit');
    });
    show('waitlist.ask.title', el);
  }

  async function ask(proof: Proof) {
    const query: Record<string, string> = 'token' in proof ? { token: proof.token } : 'booking_id' in proof ? { booking: proof.booking_id } : { type: proof.appointment_type_id };
    try {
      const res = await send(`/api/waitlist?${new URLSearchParams(query)}`);
      if (res.status === 200) return form(proof, res.json as unknown as Context);
      if (res.status === 404 || res.status === 400 || res.status === 410 || res.status === 409) return message('waitlist.ask.title', 'waitlist.ask.unavailable');
      failed('waitlist.ask.title');
    } catch {
      failed('waitlist.ask.title');
    }
  }

  const query = new URLSearchParams(window.location.search);
  const [offer, leaveToken, token, booking, type] = ['offer', 'leave', 'token', 'booking', 'type'].map((k) => query.get(k));
  if (offer) {
    heading.textContent = t('waitlist.offer.title');
    if (isCancellationToken(offer)) void loadOffer(offer);
    else message('waitlist.offer.title', 'waitlist.offer.unknown');
  } else if (leaveToken) {
    if (isCancellationToken(leaveToken)) leaveView(leaveToken);
    else message('waitlist.offer.decline', 'waitlist.offer.unknown');
  } else if (token && isCancellationToken(token)) {
    heading.textContent = t('waitlist.ask.title');
    void ask({ token });
  } else if (booking && UUID.test(booking)) {
    heading.textContent = t('waitlist.ask.title');
    void ask({ booking_id: booking });
  } else if (type && UUID.test(type)) {
    heading.textContent = t('waitlist.ask.title');
    void ask({ appointment_type_id: type });
  } else {
    message('waitlist.ask.title', 'waitlist.offer.unknown');
  }
}
