/**
 * /termin/warteliste (and /en/…), docs/decisions/032-waitlist.md:
 * - `?offer=` (the offer email): the offered time, the current booking if
 *   any, "Übernehmen" and "Von der Liste nehmen"; "schon vergeben" with the
 *   next free time when someone was first;
 * - `?leave=` (every waitlist email): off the list;
 * - `?token=` (a booking's link), `?booking=` (the success screen) or
 *   `?type=` (the wizard found nothing): "Früheren Termin gewünscht".
 * Tokens live only in the address bar: read in the browser, never at build time.
 */
import { useEffect, useRef, useState } from 'react';
import type { Lang } from '../../i18n/languages';
import { localizedPath } from '../../i18n/languages';
import { isCancellationToken } from '../../lib/cancellation-token';
import { formatLongDate } from '../../lib/dates';
import { localizedTypeName } from '../../lib/type-text';
import { waitlistText, type WaitlistTextKey } from '../../lib/waitlist-texts';
import { WaitlistAsk, type AskProof, type SiteTexts } from './waitlist-ask';

interface Offer {
  appointment_type_id: string;
  type_name: string;
  type_name_en: string | null;
  appointment_date: string;
  appointment_time: string;
  current: { date: string; time: string } | null;
}

type State =
  | { kind: 'loading' }
  | { kind: 'offer'; token: string; offer: Offer; busy?: boolean; notice?: WaitlistTextKey }
  | { kind: 'taken'; next: { token: string; offer: Offer } | null }
  | { kind: 'taken-done'; offer: Offer }
  | { kind: 'leave'; token: string; busy?: boolean }
  | { kind: 'left' }
  | { kind: 'ask'; proof: AskProof; until?: string }
  | { kind: 'message'; key: WaitlistTextKey };

interface Props {
  lang: Lang;
  texts: SiteTexts;
  phone: { display: string; href: string };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const primary = 'min-h-11 rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800 disabled:opacity-70';
const secondary = 'min-h-11 rounded-md border border-brand-700 bg-white px-5 py-3 font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-70';

async function problemOf(res: Response): Promise<{ type?: string; next?: { token: string; appointment_date: string; appointment_time: string } | null }> {
  return ((await res.json().catch(() => null)) ?? {}) as { type?: string };
}

export default function WaitlistPage({ lang, texts, phone }: Props) {
  const w = (key: WaitlistTextKey) => waitlistText(lang, key);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const offer = query.get('offer');
    const leave = query.get('leave');
    const token = query.get('token');
    const booking = query.get('booking');
    const type = query.get('type');
    if (offer) {
      if (!isCancellationToken(offer)) return setState({ kind: 'message', key: 'waitlist.offer.unknown' });
      void load(offer);
    } else if (leave) {
      setState(isCancellationToken(leave) ? { kind: 'leave', token: leave } : { kind: 'message', key: 'waitlist.offer.unknown' });
    } else if (token && isCancellationToken(token)) {
      setState({ kind: 'ask', proof: { token }, until: query.get('until') ?? undefined });
    } else if (booking && UUID.test(booking)) {
      setState({ kind: 'ask', proof: { booking_id: booking }, until: query.get('until') ?? undefined });
    } else if (type && UUID.test(type)) {
      setState({ kind: 'ask', proof: { appointment_type_id: type } });
    } else {
      setState({ kind: 'message', key: 'waitlist.offer.unknown' });
    }
  }, []);

  useEffect(() => {
    if (state.kind !== 'loading') heading.current?.focus();
  }, [state.kind]);

  async function load(token: string, fallback?: Offer) {
    try {
      const res = await fetch(`/api/waitlist/offer?${new URLSearchParams({ token })}`, { headers: { accept: 'application/json' } });
      if (res.ok) return setState({ kind: 'offer', token, offer: (await res.json()) as Offer });
      await answerProblem(res, fallback);
    } catch {
      setState({ kind: 'message', key: 'waitlist.offer.error' });
    }
  }

  async function answerProblem(res: Response, offer?: Offer) {
    const problem = await problemOf(res);
    if (res.status === 409 && problem.type === 'taken') {
      const next = problem.next;
      const base = offer ?? (state.kind === 'offer' ? state.offer : undefined);
      return setState({
        kind: 'taken',
        next: next && base ? { token: next.token, offer: { ...base, appointment_date: next.appointment_date, appointment_time: next.appointment_time } } : null,
      });
    }
    if (res.status === 410) return setState({ kind: 'message', key: 'waitlist.offer.expired' });
    if (res.status === 404 || res.status === 400) return setState({ kind: 'message', key: 'waitlist.offer.unknown' });
    setState({ kind: 'message', key: 'waitlist.offer.error' });
  }

  async function take(token: string, offer: Offer) {
    setState({ kind: 'offer', token, offer, busy: true });
    try {
      const res = await fetch('/api/waitlist/offer', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ token }) });
      if (res.ok) return setState({ kind: 'taken-done', offer });
      await answerProblem(res, offer);
    } catch {
      setState({ kind: 'offer', token, offer, notice: 'waitlist.offer.error' });
    }
  }

  async function leave(token: string) {
    setState((s) => (s.kind === 'leave' ? { ...s, busy: true } : s));
    try {
      const res = await fetch('/api/waitlist/leave', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
      setState(res.ok ? { kind: 'left' } : { kind: 'message', key: 'waitlist.offer.error' });
    } catch {
      setState({ kind: 'message', key: 'waitlist.offer.error' });
    }
  }

  // A German name standing in for a missing English one is marked lang="de" (src/lib/type-text.ts).
  const typeName = (o: Offer) => localizedTypeName(o.type_name, o.type_name_en, lang);
  const time = (t: string) => (lang === 'de' ? `${t} Uhr` : t);
  const details = (o: Offer) => (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
      <dt className="font-medium text-slate-600">{texts['summary.type']}</dt>
      <dd lang={typeName(o).lang}>{typeName(o).text}</dd>
      <dt className="font-medium text-slate-600">{texts['summary.date']}</dt>
      <dd>{formatLongDate(o.appointment_date, lang)}</dd>
      <dt className="font-medium text-slate-600">{texts['summary.time']}</dt>
      <dd>{time(o.appointment_time)}</dd>
      {o.current && (
        <>
          <dt className="font-medium text-slate-600">{w('waitlist.offer.current')}</dt>
          <dd>
            <s>
              {formatLongDate(o.current.date, lang)}, {time(o.current.time)}
            </s>
          </dd>
        </>
      )}
    </dl>
  );
  const title =
    state.kind === 'ask' ? w('waitlist.ask.title') : state.kind === 'leave' || state.kind === 'left' ? w('waitlist.offer.decline') : w('waitlist.offer.title');
  const bookNew = (
    <p className="mt-4">
      <a className="font-semibold text-brand-800 underline" href={localizedPath('/termin', lang)}>
        {texts['cancel.bookNew']}
      </a>{' '}
      · <a href={phone.href}>{phone.display}</a>
    </p>
  );

  return (
    <section>
      <h1 ref={heading} tabIndex={-1} className="mb-6 text-2xl font-bold text-slate-900 focus:outline-none sm:text-3xl">
        {title}
      </h1>
      {state.kind === 'loading' && <p aria-busy="true">{w('waitlist.offer.loading')}</p>}
      {state.kind === 'ask' && <WaitlistAsk lang={lang} proof={state.proof} texts={texts} until={state.until} />}
      {state.kind === 'offer' && (
        <div className="rounded-lg border border-slate-200 p-4 sm:p-6">
          <p className="mb-4 text-slate-700">{w('waitlist.offer.intro')}</p>
          {details(state.offer)}
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <button type="button" className={primary} disabled={state.busy} onClick={() => void take(state.token, state.offer)}>
              {w(state.busy ? 'waitlist.offer.taking' : 'waitlist.offer.take')}
            </button>
            <button type="button" className={secondary} disabled={state.busy} onClick={() => void leave(state.token)}>
              {w('waitlist.offer.decline')}
            </button>
          </div>
          {state.notice && (
            <p role="alert" className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3">
              {w(state.notice)}
            </p>
          )}
        </div>
      )}
      {state.kind === 'taken' && (
        <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-4 sm:p-6">
          <p>{w('waitlist.offer.taken')}</p>
          {state.next && (
            <div className="mt-4">
              <p className="mb-2 font-medium">{w('waitlist.offer.next')}</p>
              {details(state.next.offer)}
              <button type="button" className={`${primary} mt-4`} onClick={() => void take(state.next!.token, state.next!.offer)}>
                {w('waitlist.offer.take')}
              </button>
            </div>
          )}
        </div>
      )}
      {state.kind === 'taken-done' && (
        <div role="status" className="rounded-lg border border-brand-600 bg-brand-50 p-4 sm:p-6">
          {details({ ...state.offer, current: null })}
          <p className="mt-4">{w('waitlist.offer.done')}</p>
        </div>
      )}
      {state.kind === 'leave' && (
        <div className="rounded-lg border border-slate-200 p-4 sm:p-6">
          <p>{w('waitlist.leave.confirm')}</p>
          <button type="button" className={`${primary} mt-4`} disabled={state.busy} onClick={() => void leave(state.token)}>
            {w('waitlist.offer.decline')}
          </button>
        </div>
      )}
      {state.kind === 'left' && (
        <div role="status" className="rounded-lg border border-brand-600 bg-brand-50 p-4 sm:p-6">
          <p>{w('waitlist.leave.done')}</p>
          {bookNew}
        </div>
      )}
      {state.kind === 'message' && (
        <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 sm:p-6">
          <p>{w(state.key)}</p>
          {bookNew}
        </div>
      )}
    </section>
  );
}
