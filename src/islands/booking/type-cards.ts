/**
 * Step 1's type cards (and its offline notice) as plain HTML, for the booking page's start-up script
 * (wizard-boot.ts): the cards show without React, and the wizard takes over
 * on the first interaction. The markup is exactly what step-type.tsx renders
 * for the same types with nothing chosen (type-cards.test.ts compares them),
 * so the takeover changes nothing on screen. No React, no i18next here.
 */
import type { Lang } from '../../i18n/languages';
import { formatPrice } from '../../lib/price';
import { localizedTypeText } from '../../lib/type-text';
import type { AppointmentType } from './api';

/** The card texts, as the dictionary has them (`{{…}}` placeholders), from the page. */
export const TYPE_CARD_TEXT_KEYS = [
  'appointmentTypes.duration',
  'appointmentTypes.sameDayOnly',
  'appointmentTypes.oneDay',
  'appointmentTypes.daysInAdvance',
  'appointmentTypes.price',
  'appointmentTypes.select',
  'booking.offlineTitle',
  'booking.offlineText',
  'booking.retry',
] as const;
export type TypeCardTexts = Record<(typeof TYPE_CARD_TEXT_KEYS)[number], string>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

/** The `<ul>` of cards step-type.tsx shows for `types` (none selected). */
export function typeCardsHtml(types: AppointmentType[], lang: Lang, texts: TypeCardTexts): string {
  const advance = (days: number) =>
    days === 0 ? texts['appointmentTypes.sameDayOnly'] : days === 1 ? texts['appointmentTypes.oneDay'] : fill(texts['appointmentTypes.daysInAdvance'], { count: days });
  const cards = types.map((type) => {
    // German text standing in for missing English is marked lang="de" (src/lib/type-text.ts).
    const { name, description, nameLang, descriptionLang } = localizedTypeText(type, lang);
    const langOf = (value: string | undefined) => (value ? ` lang="${value}"` : '');
    const price =
      type.price_cents === null ? '' : `<li>${escape(fill(texts['appointmentTypes.price'], { price: formatPrice(type.price_cents, lang) }))}</li>`;
    const select = texts['appointmentTypes.select'];
    return (
      `<li class="flex flex-col rounded-lg border p-5 border-slate-200">` +
      `<h3 class="text-lg font-semibold text-slate-900"${langOf(nameLang)}>${escape(name)}</h3>` +
      `<p class="mt-1 flex-1 text-slate-700"${langOf(descriptionLang)}>${escape(description)}</p>` +
      `<ul class="mt-3 space-y-1 text-sm text-slate-700">` +
      `<li>${escape(fill(texts['appointmentTypes.duration'], { minutes: type.slot_duration_minutes }))}</li>` +
      `<li>${escape(advance(type.max_advance_days))}</li>${price}</ul>` +
      `<button type="button" aria-pressed="false" aria-label="${escape(`${select}: ${name}`)}" ` +
      `class="mt-4 rounded-md px-4 py-2 font-semibold border border-brand-700 text-brand-800 hover:bg-brand-50">${escape(select)}</button>` +
      `</li>`
    );
  });
  return `<ul class="grid gap-4 sm:grid-cols-2">${cards.join('')}</ul>`;
}

/** The notice step-type.tsx shows when the types could not be loaded because the device is offline. */
export function offlineHtml(texts: TypeCardTexts): string {
  return (
    `<div role="alert" class="rounded-lg border border-amber-300 bg-amber-50 p-6 text-slate-800">` +
    `<p class="font-semibold text-slate-900">${escape(texts['booking.offlineTitle'])}</p>` +
    `<p class="mt-1">${escape(texts['booking.offlineText'])}</p>` +
    `<button type="button" class="mt-4 rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">${escape(texts['booking.retry'])}</button>` +
    `</div>`
  );
}
