/**
 * The practice's switches for patient requests (docs/decisions/036-patient-requests.md):
 * which kinds the form offers and the notice above it, per language, kept
 * on the one practice_settings row. The form is a static page: it asks
 * GET /api/requests for these at run time (without JavaScript, the server
 * renders the form with them: form-answer.server.ts), and a POST of a
 * switched-off kind is refused (409 request-kind-closed) whatever the page
 * showed.
 */
import { eq } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import { isDatabaseUnavailable } from '../../../db/errors';
import { practiceSettings } from '../../../db/schema';
import type { RequestKind, RequestOffer } from '../../lib/request-schema';

export interface RequestSettings {
  prescription: boolean;
  referral: boolean;
  callback: boolean;
  notice_de: string | null;
  notice_en: string | null;
}

/** Before the practice saved anything: every kind on, no notice. */
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = { prescription: true, referral: true, callback: true, notice_de: null, notice_en: null };

export async function readRequestSettings(db: Executor): Promise<RequestSettings> {
  const [row] = await db
    .select({
      prescription: practiceSettings.requestsPrescription,
      referral: practiceSettings.requestsReferral,
      callback: practiceSettings.requestsCallback,
      notice_de: practiceSettings.requestsNoticeDe,
      notice_en: practiceSettings.requestsNoticeEn,
    })
    .from(practiceSettings)
    .where(eq(practiceSettings.id, true));
  return row ?? DEFAULT_REQUEST_SETTINGS;
}

/**
 * The switches for a page the server renders; null when the database cannot
 * say right now (the page then offers every kind, as the page's script does
 * when it cannot ask; a post of a closed kind is still refused).
 */
export async function settingsIfReadable(db: Executor): Promise<RequestSettings | null> {
  try {
    return await readRequestSettings(db);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return null;
    throw error;
  }
}

/** What the public form offers: the switches and the notices. */
export function offerOf(settings: RequestSettings): RequestOffer {
  return {
    kinds: { prescription: settings.prescription, referral: settings.referral, callback: settings.callback },
    notice_de: settings.notice_de,
    notice_en: settings.notice_en,
  };
}

export function isOpen(settings: RequestSettings, kind: RequestKind): boolean {
  return settings[kind];
}

/** Saves the switches and notices (the caller audits, in the same transaction). */
export async function saveRequestSettings(db: Executor, input: RequestSettings, now: Date = new Date()): Promise<RequestSettings> {
  const values = {
    requestsPrescription: input.prescription,
    requestsReferral: input.referral,
    requestsCallback: input.callback,
    requestsNoticeDe: input.notice_de,
    requestsNoticeEn: input.notice_en,
    updatedAt: now,
  };
  await db
    .insert(practiceSettings)
    .values({ id: true, ...values })
    .onConflictDoUpdate({ target: practiceSettings.id, set: values });
  return input;
}

/** The audit label of a save: which kinds are on ("Anfragen: Folgerezept an, Überweisung aus, Rückruf an"). */
export function settingsLabel(input: RequestSettings): string {
  const onOff = (on: boolean) => (on ? 'an' : 'aus');
  return `Anfragen: Folgerezept ${onOff(input.prescription)}, Überweisung ${onOff(input.referral)}, Rückruf ${onOff(input.callback)}`;
}
