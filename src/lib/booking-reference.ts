/**
 * Booking references (docs/decisions/010-staff-accounts-audit-day-list.md): 6 characters from an
 * alphabet without look-alikes (no 0/O, 1/I/L), 31^6 ≈ 887 million values.
 * The database makes them (the column's default, a fresh random value per
 * row) and keeps them unique over every stored row; a booking that draws a
 * taken one is inserted again (src/server/bookings.server.ts).
 */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const REFERENCE_LENGTH = 6;
export const REFERENCE_PATTERN = /^[2-9A-HJKMNP-Z]{6}$/;

/** The column default: one random character of the alphabet per position. */
export function referenceDefaultSql(): string {
  const one = `substr('${REFERENCE_ALPHABET}', floor(random() * ${REFERENCE_ALPHABET.length})::int + 1, 1)`;
  return Array.from({ length: REFERENCE_LENGTH }, () => one).join(' || ');
}
