/**
 * Booking references are made by the database (the column's default, a
 * fresh random value per row; docs/decisions/010-staff-accounts-audit-day-list.md):
 * 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L),
 * 31^6 ≈ 887 million values. src/lib/booking-reference.ts checks their form.
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERENCE_LENGTH = 6;

/** The column default: one random character of the alphabet per position. */
export function referenceDefaultSql(): string {
  const one = `substr('${REFERENCE_ALPHABET}', floor(random() * ${REFERENCE_ALPHABET.length})::int + 1, 1)`;
  return Array.from({ length: REFERENCE_LENGTH }, () => one).join(' || ');
}
