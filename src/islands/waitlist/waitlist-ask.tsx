/**
 * "Früheren Termin gewünscht" (docs/decisions/032-waitlist.md): from when,
 * until when, weekdays, morning/afternoon; without a booking also step 3's
 * details and consent. Posts to /api/waitlist and shows each refusal at its
 * field, in the patient's language.
 */
import { useId, useState, type FormEvent } from 'react';
import type { Lang } from '../../i18n/languages';
import { localizedPath } from '../../i18n/languages';
import { addDaysToDate, berlinToday } from '../../lib/berlin-time';
import { isWaitlistTextKey, waitlistText } from '../../lib/waitlist-texts';

/** The site's texts the form needs (step 3's labels and messages), passed in by the page. */
export type SiteTexts = Record<string, string>;

export type AskProof = { token: string } | { booking_id: string } | { appointment_type_id: string };

interface Props {
  lang: Lang;
  proof: AskProof;
  texts: SiteTexts;
  /** The booking's current date: the default "until" (nothing later can be earlier). */
  until?: string;
}

/** dd.mm.yyyy as typed → yyyy-MM-dd (anything else goes as typed: the server names the field). */
function isoBirthDate(value: string): string {
  const match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value.trim());
  return match ? `${match[3]}-${match[2]}-${match[1]}` : value.trim();
}

const input = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600';

export function WaitlistAsk({ lang, proof, texts, until }: Props) {
  const w = (key: Parameters<typeof waitlistText>[1]) => waitlistText(lang, key);
  const id = useId();
  const today = berlinToday();
  const withDetails = 'appointment_type_id' in proof;
  const [from, setFrom] = useState(today);
  // With a booking: up to its day (the server keeps only times before it).
  const [to, setTo] = useState(until && until >= today ? until : addDaysToDate(today, 7));
  const [weekdays, setWeekdays] = useState<number[]>([]);
  const [dayparts, setDayparts] = useState<string[]>([]);
  const [details, setDetails] = useState({ first_name: '', last_name: '', birth_date: '', email: '', consent: false });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [state, setState] = useState<'idle' | 'sending' | 'done' | 'already' | 'failed' | 'rate-limited'>('idle');

  const message = (key: string) => (isWaitlistTextKey(key) ? waitlistText(lang, key) : (texts[key] ?? texts['errors.invalid'] ?? key));
  const fieldError = (field: string) => {
    const keys = Object.entries(errors)
      .filter(([name]) => name === field || name.startsWith(`${field}.`))
      .flatMap(([, k]) => k);
    return keys.length ? (
      <p id={`${id}-${field}-error`} className="mt-1 text-sm text-red-700">
        {message(keys[0]!)}
      </p>
    ) : null;
  };
  const toggle = <T,>(list: T[], value: T) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setState('sending');
    setErrors({});
    const body: Record<string, unknown> = { ...proof, from, to, weekdays, dayparts };
    if (withDetails) {
      Object.assign(body, { ...details, birth_date: isoBirthDate(details.birth_date), language: lang });
    }
    try {
      const res = await fetch('/api/waitlist', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
      if (res.status === 201) return setState('done');
      const problem = (await res.json().catch(() => null)) as { type?: string; errors?: Record<string, string[]> } | null;
      if (res.status === 400 && problem?.errors) {
        setErrors(problem.errors);
        return setState('idle');
      }
      if (res.status === 409 && problem?.type === 'already-waiting') return setState('already');
      setState(res.status === 429 ? 'rate-limited' : 'failed');
    } catch {
      setState('failed');
    }
  }

  if (state === 'done' || state === 'already') {
    return (
      <p role="status" className="rounded-md border border-brand-600 bg-brand-50 p-4 text-slate-900">
        {w(state === 'done' ? 'waitlist.ask.done' : 'waitlist.ask.already')}
      </p>
    );
  }
  const describedBy = (field: string) => (Object.keys(errors).some((n) => n === field || n.startsWith(`${field}.`)) ? `${id}-${field}-error` : undefined);
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4" aria-label={w('waitlist.ask.title')}>
      <p className="text-slate-700">{w(withDetails ? 'waitlist.ask.introNoBooking' : 'waitlist.ask.intro')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-from`} className="block font-medium">{w('waitlist.ask.from')}</label>
          <input id={`${id}-from`} type="date" className={input} value={from} min={today} onChange={(e) => setFrom(e.target.value)} aria-describedby={describedBy('from')} aria-invalid={!!describedBy('from')} />
          {fieldError('from')}
        </div>
        <div>
          <label htmlFor={`${id}-to`} className="block font-medium">{w('waitlist.ask.to')}</label>
          <input id={`${id}-to`} type="date" className={input} value={to} min={from} onChange={(e) => setTo(e.target.value)} aria-describedby={describedBy('to')} aria-invalid={!!describedBy('to')} />
          {fieldError('to')}
        </div>
      </div>
      <fieldset>
        <legend className="font-medium">{w('waitlist.ask.weekdays')}</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {[1, 2, 3, 4, 5, 6, 7].map((d) => (
            <label key={d} className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3">
              <input type="checkbox" checked={weekdays.includes(d)} onChange={() => setWeekdays(toggle(weekdays, d))} />
              {w(`waitlist.weekday.${d}` as Parameters<typeof waitlistText>[1])}
            </label>
          ))}
        </div>
        <p className="mt-1 text-sm text-slate-600">{w('waitlist.ask.anyWeekday')}</p>
        {fieldError('weekdays')}
      </fieldset>
      <fieldset>
        <legend className="font-medium">{w('waitlist.ask.dayparts')}</legend>
        <div className="mt-1 flex flex-wrap gap-2">
          {(['morning', 'afternoon'] as const).map((p) => (
            <label key={p} className="inline-flex min-h-11 items-center gap-1 rounded-md border border-slate-300 px-3">
              <input type="checkbox" checked={dayparts.includes(p)} onChange={() => setDayparts(toggle(dayparts, p))} />
              {w(p === 'morning' ? 'waitlist.ask.morning' : 'waitlist.ask.afternoon')}
            </label>
          ))}
        </div>
        {fieldError('dayparts')}
      </fieldset>
      {withDetails && (
        <div className="grid gap-4 sm:grid-cols-2">
          {(['first_name', 'last_name'] as const).map((field) => (
            <div key={field}>
              <label htmlFor={`${id}-${field}`} className="block font-medium">
                {texts[field === 'first_name' ? 'bookingForm.firstName' : 'bookingForm.lastName']} *
              </label>
              <input id={`${id}-${field}`} className={input} autoComplete={field === 'first_name' ? 'given-name' : 'family-name'} value={details[field]} onChange={(e) => setDetails({ ...details, [field]: e.target.value })} aria-describedby={describedBy(field)} aria-invalid={!!describedBy(field)} />
              {fieldError(field)}
            </div>
          ))}
          <div>
            <label htmlFor={`${id}-birth`} className="block font-medium">{texts['bookingForm.birthDate']} *</label>
            <input id={`${id}-birth`} className={input} inputMode="numeric" autoComplete="bday" placeholder="TT.MM.JJJJ" value={details.birth_date} onChange={(e) => setDetails({ ...details, birth_date: e.target.value })} aria-describedby={describedBy('birth_date')} aria-invalid={!!describedBy('birth_date')} />
            <p className="mt-1 text-sm text-slate-600">{texts['bookingForm.birthDateHint']}</p>
            {fieldError('birth_date')}
          </div>
          <div>
            <label htmlFor={`${id}-email`} className="block font-medium">{texts['bookingForm.email']} *</label>
            <input id={`${id}-email`} type="email" className={input} autoComplete="email" value={details.email} onChange={(e) => setDetails({ ...details, email: e.target.value })} aria-describedby={describedBy('email')} aria-invalid={!!describedBy('email')} />
            {fieldError('email')}
          </div>
          <div className="sm:col-span-2">
            <label className="flex items-start gap-2">
              <input type="checkbox" className="mt-1" checked={details.consent} onChange={(e) => setDetails({ ...details, consent: e.target.checked })} aria-describedby={describedBy('consent')} />
              <span>
                {texts['bookingForm.consentBefore']}{' '}
                <a href={localizedPath('/datenschutz', lang)} target="_blank" rel="noopener" className="underline">
                  {texts['bookingForm.consentLink']}
                </a>{' '}
                {texts['bookingForm.consentAfter']} *
              </span>
            </label>
            {fieldError('consent')}
          </div>
        </div>
      )}
      {fieldError('appointment_type_id')}
      <p className="text-sm text-slate-600">{w('waitlist.ask.kept')}</p>
      {(state === 'failed' || state === 'rate-limited') && (
        <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-slate-900">
          {state === 'rate-limited' ? (texts['toast.rateLimited'] ?? w('waitlist.offer.error')) : w('waitlist.offer.error')}
        </p>
      )}
      <button type="submit" disabled={state === 'sending'} className="min-h-11 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70">
        {w(state === 'sending' ? 'waitlist.ask.submitting' : 'waitlist.ask.submit')}
      </button>
    </form>
  );
}
