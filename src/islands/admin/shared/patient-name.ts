/**
 * What a staff view shows for a booking's patient once its details may be
 * gone (docs/decisions/026): the scheduled job deletes a booking's
 * appointment contact at the end of its Berlin day, so a past day's booking
 * without details reads "Name gelöscht". Views that show names pass the
 * booking's `patient` (null when deleted or unreadable); for today and later
 * a missing name is for the caller to word (null here).
 */
import { labels } from './labels';

export interface PatientNameOf {
  appointment_date: string;
  patient?: { first_name: string; last_name: string } | null;
}

/** "Nachname, Vorname"; "Name gelöscht" for a past day without details; null otherwise. */
export function patientNameText(slot: PatientNameOf, today: string): string | null {
  if (slot.patient) return `${slot.patient.last_name}, ${slot.patient.first_name}`;
  return slot.appointment_date < today ? labels.patient.deleted : null;
}
