/**
 * The language of each patient's emails, for the staff dialogs that send
 * one ("Absagen", "Verschieben": "E-Mail auf Englisch"; docs/decisions/030).
 * Only the language leaves the sealed appointment contact; a phone booking,
 * a practice cancellation or a contact no key opens has none (null), and
 * then no email goes: staff call.
 */
import { inArray } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { appointmentContacts } from '../../../db/schema';
import type { Lang } from '../../i18n/i18n';
import type { KeyRing } from '../appointment-contact/keys.server';
import { openContact } from '../appointment-contact/store.server';

export async function withPatientLanguage<T extends { id: string; source: string; status: string }>(
  db: Database,
  rows: T[],
  keys: KeyRing | null,
): Promise<Array<T & { language: Lang | null }>> {
  const ids = rows.filter((r) => r.source === 'online' && r.status === 'booked').map((r) => r.id);
  const sealed =
    keys && ids.length > 0
      ? await db
          .select({ bookingId: appointmentContacts.bookingId, keyId: appointmentContacts.keyId, sealed: appointmentContacts.sealed })
          .from(appointmentContacts)
          .where(inArray(appointmentContacts.bookingId, ids))
      : [];
  const language = new Map<string, Lang>();
  for (const { bookingId, ...value } of sealed) {
    const contact = openContact(value, bookingId, keys);
    if (contact) language.set(bookingId, contact.language);
  }
  return rows.map((r) => ({ ...r, language: language.get(r.id) ?? null }));
}
