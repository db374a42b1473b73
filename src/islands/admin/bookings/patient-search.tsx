/**
 * "Patient suchen" (docs/decisions/025): a caller without their reference
 * is found by any part of the name ("muller" finds "Müller") or by birth
 * date, over today's and later bookings. The query goes to the API only,
 * never into the page's address or storage; a hit opens its booking in
 * the list (`onOpen`).
 */
import { useState } from 'react';
import { adminApi, failureText, type PatientHit } from '../shared/admin-api';
import { errorText, labels } from '../shared/labels';
import { formatShortDate } from '../../../lib/dates';
import { inputClass, primaryButton } from '../shared/ui';
import { germanDate } from '../shared/views';

const L = labels.booked;

export function PatientSearch({ onOpen }: { onOpen: (hit: PatientHit) => void }) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<PatientHit[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function search(event: React.SyntheticEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setHits(await adminApi.patients(query));
    } catch (failure) {
      const field = failure instanceof Error && 'fieldErrors' in failure ? (failure as { fieldErrors?: Record<string, string[]> }).fieldErrors?.q?.[0] : undefined;
      setHits(null);
      setError((field ? errorText(field) : undefined) ?? `${L.patientSearchError} ${failureText(failure)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="patient-search-heading" className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="patient-search-heading" className="text-lg font-semibold">
        {L.patientSearch}
      </h2>
      <form role="search" onSubmit={search} className="mt-2 flex flex-wrap items-end gap-3" autoComplete="off">
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor="patient-search" className="block text-sm font-medium">
            {L.patientSearch}
          </label>
          <input
            id="patient-search"
            type="search"
            className={inputClass}
            value={query}
            aria-describedby="patient-search-hint"
            aria-invalid={error ? true : undefined}
            onChange={(event) => setQuery(event.target.value)}
          />
          <p id="patient-search-hint" className="mt-1 text-xs text-slate-600">
            {L.patientSearchHint}
          </p>
        </div>
        <button type="submit" className={primaryButton} disabled={busy}>
          {L.patientSearchButton}
        </button>
      </form>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      )}
      {hits !== null && (
        <div className="mt-3" aria-live="polite">
          <p className="text-sm text-slate-600">{hits.length === 0 ? L.patientSearchNone : L.patientSearchResults(hits.length)}</p>
          {hits.length > 0 && (
            <ul className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200">
              {hits.map((hit) => {
                const name = `${hit.last_name}, ${hit.first_name}`;
                const when = `${formatShortDate(hit.appointment_date)}, ${hit.appointment_time} Uhr`;
                return (
                  <li key={hit.id}>
                    <button
                      type="button"
                      className="flex w-full flex-wrap items-baseline gap-x-3 gap-y-1 px-3 py-2 text-left text-sm hover:bg-slate-50"
                      aria-label={L.openBooking(name, when)}
                      onClick={() => onOpen(hit)}
                    >
                      <span className="font-semibold">{name}</span>
                      {hit.birth_date && <span className="text-slate-600">{L.born(germanDate(hit.birth_date))}</span>}
                      <span className="tabular-nums">{when}</span>
                      <span>{hit.type_name}</span>
                      <span className="font-mono tracking-wider">{hit.reference}</span>
                      <span className="text-slate-600">{L.sources[hit.source] ?? hit.source}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
