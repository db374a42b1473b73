/**
 * Booking references are made by the database (the column's default, a
 * fresh random value per row; docs/decisions/010-staff-accounts-audit-day-list.md):
 * 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L),
 * 31^6 ≈ 887 million values. src/lib/booking-reference.ts checks their form.
 */
import { randomInt } from 'node:crypto';

export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERENCE_LENGTH = 6;

/** The column default: one random character of the alphabet per position. */
export function referenceDefaultSql(): string {
  const one = `substr('${REFERENCE_ALPHABET}', floor(random() * ${REFERENCE_ALPHABET.length})::int + 1, 1)`;
  return Array.from({ length: REFERENCE_LENGTH }, () => one).join(' || ');
}

/**
 * A reference drawn by the application, for a statement that needs it
 * before the row exists (a booking's emails are queued by the booking's own
 * statement and name the reference). Same alphabet and length as the
 * column default; a taken one is refused by the unique index and drawn again.
 */
export function drawReference(): string {
  return Array.from({ length: REFERENCE_LENGTH }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join('');
}
