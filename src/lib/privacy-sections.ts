/**
 * Every kind of personal data the site handles, with the tables that hold
 * it sealed and the privacy page's section about it
 * (docs/decisions/042-install-on-node-20-and-a-suite-under-load.md). One
 * list to extend: a feature that stores something new (a table with sealed
 * values: `sealed` / `key_id`, or `*_sealed` / `*_key_id` columns) adds its
 * kind here and a section to both src/content/de/datenschutz.md and
 * src/content/en/datenschutz.md. tests/unit/privacy-page.test.ts fails while
 * a sealed table has no kind, or a page lacks a kind's section.
 *
 * `anchor` is the section heading's id on each language's page as the build
 * makes it from the heading's text (lower case, spaces to hyphens,
 * punctuation dropped): /datenschutz#<de>, /en/datenschutz#<en>. Renaming a
 * heading changes its id; the test then names the anchor to update.
 */
export interface StoredDataKind {
  /** Stable name of the kind. */
  kind: string;
  /** What it is, for a failing test's message. */
  what: string;
  /** The tables (db/schema.ts) that hold it sealed; none for data kept in no sealed table. */
  tables: readonly string[];
  /** The section's heading id on the German and on the English privacy page. */
  anchor: { de: string; en: string };
}

export const STORED_DATA_KINDS = [
  {
    kind: 'appointment-contact',
    what: "a booking's patient details (name, birth date, phone, email, language), also after a practice cancellation until the day's end",
    tables: ['appointment_contacts', 'cancelled_bookings'],
    anchor: { de: 'ihre-angaben-zu-ihrem-termin', en: 'your-details-for-your-appointment' },
  },
  {
    kind: 'reminder',
    what: 'the opt-in reminder (kept with the appointment contact)',
    tables: [],
    anchor: { de: 'terminerinnerung-per-e-mail-freiwillig', en: 'email-reminder-optional' },
  },
  {
    kind: 'sms',
    what: 'SMS consent and the mobile number (sealed with the contact), SMS waiting to be sent, and the short links /k/ they carry',
    tables: ['short_links'],
    anchor: { de: 'benachrichtigung-per-sms-freiwillig', en: 'notification-by-sms-optional' },
  },
  {
    kind: 'waitlist-entry',
    what: 'a waitlist entry (name, birth date, phone, email, language, the wished period)',
    tables: ['waitlist_entries'],
    anchor: { de: 'warteliste-für-einen-früheren-termin', en: 'waitlist-for-an-earlier-appointment' },
  },
  {
    kind: 'patient-request',
    what: 'a patient request (prescription, referral, call-back) and the practice message about it',
    tables: ['patient_requests'],
    anchor: { de: 'online-anfragen-rezept-überweisung-rückruf', en: 'online-requests-prescription-referral-call-back' },
  },
  {
    kind: 'outbox-message',
    what: 'emails waiting to be sent, their bodies for 7 days, and their delivery status',
    tables: ['email_outbox'],
    anchor: { de: 'e-mails-die-wir-ihnen-schicken', en: 'emails-we-send-you' },
  },
  {
    kind: 'staff-account',
    what: "a staff member's account: email, password hash, second factor (sealed), passkeys, signed-in devices",
    tables: ['staff_second_factors'],
    anchor: { de: 'anmeldung-des-praxisteams', en: 'sign-in-of-the-practice-team' },
  },
  {
    kind: 'contact-message',
    what: 'contact form messages (sent, never stored)',
    tables: [],
    anchor: { de: 'kontaktformular', en: 'contact-form' },
  },
  {
    kind: 'browser-storage',
    what: 'the language choice kept in the browser',
    tables: [],
    anchor: { de: 'in-ihrem-browser-gespeicherte-angaben', en: 'data-stored-in-your-browser' },
  },
] as const satisfies readonly StoredDataKind[];
