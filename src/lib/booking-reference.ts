/**
 * The form of a booking reference (docs/decisions/010-staff-accounts-audit-day-list.md):
 * 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L). The
 * database makes them (db/booking-reference.ts, the column's default) and
 * keeps them unique over every stored row; a booking that draws a taken one
 * is inserted again (src/server/bookings).
 */
export const REFERENCE_PATTERN = /^[2-9A-HJKMNP-Z]{6}$/;
