/** The patient requests' text limits (docs/decisions/036-patient-requests.md), apart so that schemas without a phone field need not load the phone metadata. */
export const REQUEST_LIMITS = {
  nameMax: 100,
  medicationsMax: 5,
  medicationNameMax: 100,
  medicationDetailMax: 50,
  specialtyMax: 100,
  reasonMax: 500,
  topicMax: 500,
  noteMax: 1000,
  /** The practice's message to the patient. */
  messageMax: 500,
  /** The practice's notice above the form, per language. */
  noticeMax: 300,
} as const;
