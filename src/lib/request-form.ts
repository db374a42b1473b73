/**
 * The request form as posted (docs/decisions/036-patient-requests.md): an
 * HTML form of `application/x-www-form-urlencoded` fields, the same names as
 * the API's JSON (medications as `medications.0.name` …), read into the
 * JSON request that patientRequestSchema checks. The form posts every
 * section whatever the kind; the schema keeps the chosen kind's fields.
 */
import type { Lang } from '../i18n/languages';
import { typedDateToIso } from './booking-schema';
import { REQUEST_LIMITS } from './request-limits';

/** Every field of the form a visitor types or chooses (not the honeypot), for putting them back into the page. */
export const REQUEST_FORM_FIELDS = [
  'kind',
  'first_name',
  'last_name',
  'birth_date',
  'email',
  'phone',
  'sms',
  'language',
  'consent',
  'note',
  'insurance',
  'delivery',
  'card_read_this_quarter',
  ...Array.from({ length: REQUEST_LIMITS.medicationsMax }, (_, i) => [`medications.${i}.name`, `medications.${i}.strength`, `medications.${i}.pack`]).flat(),
  'specialty',
  'reason',
  'callback_date',
  'daypart',
  'topic',
] as const;

/** The page's language, posted as a hidden field: the answer page is in it. */
export const PAGE_LANGUAGE_FIELD = 'page_language';

/**
 * The request form as the server renders it, with the kinds the practice
 * takes now and its notice (German path; the English twin is
 * /en/request/form): where the static page sends a browser without
 * JavaScript, and where a form post's answer is shown (Post/Redirect/Get;
 * docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
 */
export const REQUEST_FORM_PAGE = '/anfrage/formular';

const ticked = (value: string | undefined) => value === 'on' || value === 'true' || value === '1';
const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value);

/**
 * The posted form as the API's JSON request (not yet checked). Empty
 * medication rows are left out; `medicationRows[i]` is the form's row of
 * the request's `medications[i]`, to name the right fields in an error.
 */
export function requestFromForm(form: Record<string, string>, pageLang: Lang): { request: Record<string, unknown>; medicationRows: number[] } {
  const medicationRows: number[] = [];
  const birth = form.birth_date ?? '';
  const request: Record<string, unknown> = {
    kind: form.kind,
    first_name: form.first_name ?? '',
    last_name: form.last_name ?? '',
    // As typed on the page (TT.MM.JJJJ, DD/MM/YYYY); left as typed when it is none of those, for the schema to name.
    birth_date: typedDateToIso(birth, pageLang) ?? birth,
    email: form.email ?? '',
    phone: text(form.phone),
    ...(ticked(form.sms) ? { sms: true } : {}),
    language: form.language,
    consent: ticked(form.consent),
    note: text(form.note),
    website: form.website,
  };
  if (form.kind === 'prescription') {
    request.insurance = text(form.insurance);
    request.delivery = text(form.delivery);
    request.card_read_this_quarter = ticked(form.card_read_this_quarter);
    const medications: Array<Record<string, string | undefined>> = [];
    for (let i = 0; i < REQUEST_LIMITS.medicationsMax; i++) {
      const row = { name: form[`medications.${i}.name`] ?? '', strength: text(form[`medications.${i}.strength`]), pack: text(form[`medications.${i}.pack`]) };
      if (row.name.trim() === '' && !row.strength && !row.pack) continue;
      medications.push(row);
      medicationRows.push(i);
    }
    request.medications = medications;
  } else if (form.kind === 'referral') {
    request.specialty = form.specialty ?? '';
    request.reason = form.reason ?? '';
  } else if (form.kind === 'callback') {
    request.callback_date = form.callback_date ?? '';
    request.daypart = text(form.daypart);
    request.topic = form.topic ?? '';
  }
  return { request, medicationRows };
}

/** A field error's name in the form: `medications.0.name` of the request is the form's row it came from. */
export function formFieldOf(field: string, medicationRows: number[]): string {
  const match = /^medications\.(\d+)(\..+)?$/.exec(field);
  if (!match) return field;
  const row = medicationRows[Number(match[1])];
  return row === undefined ? field : `medications.${row}${match[2] ?? ''}`;
}
