/**
 * The wizard's steps in the address bar, so each step is a history entry
 * (back and forward move between steps) and a reload restores type, date and
 * time. Only these choices go into the URL, never anything the patient typed.
 * German pages use German parameter names, English pages English ones:
 * /termin?schritt=2&typ=…&datum=…&zeit=… and /en/termin?step=2&type=…&date=…&time=…
 * The success screen has no URL of its own: a reload there starts afresh.
 */
import type { Lang } from '../../i18n/languages';
import { initialWizardState, type WizardState } from './wizard-state';

const NAMES = {
  de: { step: 'schritt', type: 'typ', date: 'datum', time: 'zeit' },
  en: { step: 'step', type: 'type', date: 'date', time: 'time' },
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const ID = /^[0-9A-Za-z-]{1,64}$/;

/** The query string (with "?", or "" for a fresh wizard) that stands for a state. */
export function searchOf(state: WizardState, lang: Lang): string {
  const n = NAMES[lang];
  if (state.step === 5 || (state.step === 1 && state.typeId === null)) return '';
  const params = new URLSearchParams();
  params.set(n.step, String(state.step));
  if (state.typeId) params.set(n.type, state.typeId);
  if (state.date) params.set(n.date, state.date);
  if (state.time) params.set(n.time, state.time);
  return `?${params}`;
}

/**
 * The state a query string stands for. Anything malformed or incomplete falls
 * back to the furthest step it still describes (no type: step 1; no time: step 2).
 * The page's own parameter names win; the other language's are understood.
 */
export function stateOf(search: string, lang: Lang): WizardState {
  const params = new URLSearchParams(search);
  // The other language's names too: the language button keeps the query string.
  const other = NAMES[lang === 'de' ? 'en' : 'de'];
  const n = params.has(NAMES[lang].type) || !params.has(other.type) ? NAMES[lang] : other;
  const typeId = params.get(n.type);
  if (!typeId || !ID.test(typeId)) return initialWizardState;
  const rawDate = params.get(n.date);
  const date = rawDate && DATE.test(rawDate) ? rawDate : null;
  const rawTime = params.get(n.time);
  const time = date && rawTime && TIME.test(rawTime) ? rawTime : null;
  const step = Number(params.get(n.step));
  if (step === 1) return { step: 1, typeId, date, time };
  if (step === 3 && date && time) return { step: 3, typeId, date, time };
  return { step: 2, typeId, date, time };
}
