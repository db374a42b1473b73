/**
 * The back office's entities, one zod schema per concept, shared by the
 * admin forms and the /api/admin/* functions (docs/architecture.md,
 * HTTP API). Messages are translation-key-like strings (admin.errors.*)
 * that src/islands/admin/shared/labels.ts turns into German.
 */
import * as z from './zod';
import { addDaysToDate, berlinToday } from './berlin-time';
import { emailSchema, germanDateToIso, isPlausibleBirthDate, isRealDate, MAX_AVAILABILITY_DAYS } from './booking-schema';
import { visibleLength } from './text-input';
import { adminText, optionalAdminText } from './admin-text';
import { UUID } from './uuid';

export { UUID };

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The select option that means "every consultation type" (stored as null). */
export const ALL_TYPES = '__ALL__';

export const APPOINTMENT_TYPE_DEFAULTS = { max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1, online_bookable: true } as const;
export const TIME_WINDOW_DEFAULTS = { day_of_week: 1, start_time: '09:00', end_time: '17:00' } as const;

/**
 * Every text field uses one of these two: the patient text rules
 * (src/lib/admin-text.ts; a single line unless `{ multiline: true }`).
 */
const requiredText = adminText;
/** Optional text: missing, null or blank all become null (saved as null when empty). */
const optionalText = optionalAdminText;

const optionalDate = z
  .pipe(
    z.nullish(z.string({ error: 'admin.errors.dateInvalid' })),
    z.transform((v) => (v == null || v.trim() === '' ? null : v.trim())),
  )
  .check(z.refine((v) => v === null || isRealDate(v), 'admin.errors.dateInvalid'));

const integer = (key: string, min: number, max: number) =>
  z.number({ error: key }).check(z.int(key), z.gte(min, key), z.lte(max, key));

export const appointmentTypeSchema = z.object({
  name: requiredText('admin.errors.nameRequired', 100),
  name_en: optionalText(100),
  description: requiredText('admin.errors.descriptionRequired', 2000, { multiline: true }),
  description_en: optionalText(2000, { multiline: true }),
  max_advance_days: integer('admin.errors.maxAdvanceDaysRange', 0, 365),
  slot_duration_minutes: integer('admin.errors.slotDurationRange', 5, 180).check(z.multipleOf(5, 'admin.errors.slotDurationStep')),
  max_slots_per_time: integer('admin.errors.maxSlotsRange', 1, 10),
  price_cents: z
    .pipe(
      z.nullish(z.number({ error: 'admin.errors.priceInvalid' })),
      z.transform((v) => v ?? null),
    )
    .check(z.refine((v) => v === null || (Number.isInteger(v) && v >= 0 && v <= 10_000_000), 'admin.errors.priceInvalid')),
  /** False pauses the type online: patients no longer see it, staff still book it (docs/decisions/020-reception.md). */
  online_bookable: z._default(z.boolean({ error: 'admin.errors.invalid' }), true),
});
export type AppointmentTypeInput = z.output<typeof appointmentTypeSchema>;

/**
 * "35", "35,5", "35.50" euros → cents; blank → null; anything else → NaN
 * (which the schema refuses). The form holds euros, the API cents.
 */
export function eurosToCents(value: string): number | null {
  const v = value.trim();
  if (v === '') return null;
  if (!/^\d{1,6}([.,]\d{1,2})?$/.test(v)) return Number.NaN;
  return Math.round(Number(v.replace(',', '.')) * 100);
}

export function centsToEuros(cents: number | null): string {
  return cents === null ? '' : (cents / 100).toFixed(2).replace('.', ',');
}

/** The type dialog: the API schema with the price typed in euros. */
export const appointmentTypeFormSchema = z.extend(z.omit(appointmentTypeSchema, { price_cents: true }), {
  price: z.string().check(z.refine((v) => !Number.isNaN(eurosToCents(v)), 'admin.errors.priceInvalid')),
});
export type AppointmentTypeForm = z.input<typeof appointmentTypeFormSchema>;

export const typeId = z.string({ error: 'admin.errors.typeRequired' }).check(z.regex(UUID, 'admin.errors.typeRequired'));

export const timeWindowSchema = z
  .object({
    appointment_type_id: typeId,
    day_of_week: integer('admin.errors.weekdayRequired', 0, 6),
    start_time: z.string({ error: 'admin.errors.timeInvalid' }).check(z.regex(HH_MM, 'admin.errors.timeInvalid')),
    end_time: z.string({ error: 'admin.errors.timeInvalid' }).check(z.regex(HH_MM, 'admin.errors.timeInvalid')),
  })
  .check(
    z.refine((w) => !HH_MM.test(w.start_time) || !HH_MM.test(w.end_time) || w.start_time < w.end_time, {
      path: ['end_time'],
      message: 'admin.errors.startBeforeEnd',
    }),
  );
export type TimeWindowInput = z.output<typeof timeWindowSchema>;

/** The API's weekdays: 1 = Monday … 7 = Sunday (ISO); stored as day_of_week 0 = Sunday … 6 = Saturday. */
export const isoWeekdayToDayOfWeek = (iso: number) => iso % 7;
export const dayOfWeekToIsoWeekday = (day: number) => (day === 0 ? 7 : day);

/**
 * POST /api/admin/time-slots: the same window for several weekdays in one
 * step (`days_of_week`, ISO 1–7, each once), or for one (`day_of_week`, as
 * before). Out: the window for each stored weekday, Monday first.
 */
export const newTimeWindowsSchema = z.pipe(
  z
    .object({
      ...timeWindowSchema.shape,
      day_of_week: z.optional(timeWindowSchema.shape.day_of_week),
      // Checked as a whole, so every mistake in the list names the field itself.
      days_of_week: z.optional(
        z.custom<number[]>(
          (v) => Array.isArray(v) && v.length >= 1 && v.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) && new Set(v).size === v.length,
          { message: 'admin.errors.weekdayRequired' },
        ),
      ),
    })
    .check(
      z.superRefine((w, ctx) => {
        if ((w.day_of_week === undefined) === (w.days_of_week === undefined)) {
          ctx.addIssue({ code: 'custom', path: ['days_of_week'], message: 'admin.errors.weekdayRequired' });
        }
        if (HH_MM.test(w.start_time) && HH_MM.test(w.end_time) && w.start_time >= w.end_time) {
          ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'admin.errors.startBeforeEnd' });
        }
      }),
    ),
  z.transform(({ days_of_week, day_of_week, ...window }) => ({
    ...window,
    several: days_of_week !== undefined,
    days: [...(days_of_week ?? [dayOfWeekToIsoWeekday(day_of_week!)])].sort((a, b) => a - b).map(isoWeekdayToDayOfWeek),
  })),
);
export type NewTimeWindowsInput = z.output<typeof newTimeWindowsSchema>;

/** A block's date range may end at most this many days after its first day. */
export const MAX_BLOCK_RANGE_DAYS = 366;

/** HH:mm or nothing: missing, null and blank are null. */
const optionalTime = z
  .pipe(
    z.nullish(z.string({ error: 'admin.errors.timeInvalid' })),
    z.transform((v) => (v == null || v.trim() === '' ? null : v.trim())),
  )
  .check(z.refine((v) => v === null || HH_MM.test(v), 'admin.errors.timeInvalid'));

/**
 * The practice's optional message to a patient whose appointment it cancels
 * or moves ("Absagen", "Verschieben", a block that cancels;
 * docs/decisions/021): at most 500 characters, the patient text rules
 * (NFC; no control, bidi or separator characters; no RFC 2047 encoded word).
 * Sent as typed, never stored or audited.
 */
const patientMessage = () => z.pipe(optionalAdminText(500, { multiline: true }), z.transform((v) => v ?? undefined));

/**
 * Staff confirm a message that names the type (or a request's details): email is not
 * confidential, so without it such a message is 409 `message-names-details` (docs/decisions/041).
 */
export const confirmMessage = () => z.optional(z.boolean({ error: 'admin.errors.invalid' }));

export const blockedDateSchema = z
  .object({
    /** Not before Berlin's today: a block never reaches back over appointments that have begun (docs/decisions/030). */
    date: z
      .string({ error: 'admin.errors.dateRequired' })
      .check(z.refine(isRealDate, 'admin.errors.dateRequired'), z.refine((v) => !isRealDate(v) || v >= berlinToday(), 'admin.errors.blockInPast')),
    reason: optionalText(500),
    // '__ALL__' (the form's option) and null both mean every type.
    appointment_type_id: z.pipe(
      z.nullish(z.union([z.literal(ALL_TYPES), typeId])),
      z.transform((v) => (v == null || v === ALL_TYPES ? null : v)),
    ),
    /** Both empty: the whole day; otherwise both, start before end (docs/decisions/010-staff-accounts-audit-day-list.md). */
    start_time: optionalTime,
    end_time: optionalTime,
    /** The last day (inclusive) of a range blocked in one step, at most 366 days after `date`; one row per day. New blocks only. */
    end_date: optionalDate,
    /**
     * What becomes of the bookings the block covers: "cancel" them (each as by
     * "Absagen", patients told) or "keep" them. Absent: 409 has-bookings listing them, when there are any.
     */
    bookings: z.optional(z.enum(['cancel', 'keep'], { error: 'admin.errors.invalid' })),
    /** With `bookings: "cancel"`: the message each cancelled patient's email carries (sent, never stored). */
    message: patientMessage(),
    confirm: confirmMessage(),
  })
  .check(
    z.superRefine((b, ctx) => {
      if (b.end_date !== null && isRealDate(b.date) && b.end_date < b.date) {
        ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'admin.errors.endBeforeStart' });
      } else if (b.end_date !== null && isRealDate(b.date) && b.end_date > addDaysToDate(b.date, MAX_BLOCK_RANGE_DAYS)) {
        ctx.addIssue({ code: 'custom', path: ['end_date'], message: 'admin.errors.rangeTooLong' });
      }
      if ((b.start_time === null) !== (b.end_time === null)) {
        ctx.addIssue({ code: 'custom', path: [b.start_time === null ? 'start_time' : 'end_time'], message: 'admin.errors.timeRangeBoth' });
      } else if (b.start_time !== null && b.end_time !== null && HH_MM.test(b.start_time) && HH_MM.test(b.end_time) && b.start_time >= b.end_time) {
        ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'admin.errors.startBeforeEnd' });
      }
    }),
  );
export type BlockedDateInput = z.output<typeof blockedDateSchema>;

/** Staff may book and move up to this many days ahead, whatever a type's online window (docs/decisions/020-reception.md). */
export const STAFF_BOOKING_DAYS = 365;

/** A date staff may book: a real date, at most 365 days after Berlin's today (the past is a 409 `past`). */
export const staffDate = z
  .string({ error: 'admin.errors.dateRequired' })
  .check(
    z.refine(isRealDate, 'admin.errors.dateRequired'),
    z.refine((v) => !isRealDate(v) || v <= addDaysToDate(berlinToday(), STAFF_BOOKING_DAYS), 'admin.errors.tooFarAhead'),
  );

export const staffTime = z.string({ error: 'admin.errors.timeInvalid' }).check(z.regex(HH_MM, 'admin.errors.timeInvalid'));

/** A caller's name as staff type it: the patient text rules (admin text), at least 2 visible characters. */
export const patientName = (requiredKey: string) =>
  requiredText(requiredKey, 100).check(z.refine((v) => visibleLength(v) >= 2, requiredKey));

/** Optional birth date, typed dd.mm.yyyy or sent yyyy-mm-dd; blank is none; out: yyyy-mm-dd or null. */
export const optionalBirthDate = z
  .pipe(
    z.nullish(z.string({ error: 'admin.errors.birthDateInvalid' })),
    z.transform((v) => (v == null || v.trim() === '' ? null : (germanDateToIso(v) ?? v.trim()))),
  )
  .check(z.refine((v) => v === null || isPlausibleBirthDate(v), 'admin.errors.birthDateInvalid'));

/** Optional email (the wizard's rules); blank is none. */
export const optionalEmail = z.pipe(
  z
    .pipe(
      z.nullish(z.string({ error: 'admin.errors.emailInvalid' })),
      z.transform((v) => (v == null || v.trim() === '' ? null : v)),
    )
    .check(z.refine((v) => v === null || emailSchema.safeParse(v).success, 'admin.errors.emailInvalid')),
  z.transform((v) => (v === null ? null : emailSchema.parse(v))),
);

/**
 * Staff book a closed day (a public holiday, 24/31 December when closed)
 * only after the warning: without `confirm_holiday: true` such a booking or
 * move answers 409 slot-unavailable `reason: "holiday"` (docs/decisions/039-public-holidays.md).
 */
export const confirmHoliday = z.optional(z.boolean({ error: 'admin.errors.invalid' }));


/**
 * POST /api/admin/booked-slots/:id/move: a new date and time of the booking's type, an optional message to the patient
 * (`confirm` when it names the type), and `confirm_holiday` as for a staff booking.
 */
export const staffMoveSchema = z.object({
  appointment_date: staffDate,
  appointment_time: staffTime,
  message: patientMessage(),
  confirm: confirmMessage(),
  confirm_holiday: confirmHoliday,
});
export type StaffMoveInput = z.output<typeof staffMoveSchema>;

/** "Absagen": the optional message to the patient (patientMessage above). */
export const cancelMessageSchema = z.object({ message: patientMessage(), confirm: confirmMessage() });
export type CancelMessageInput = z.output<typeof cancelMessageSchema>;

/** Arrival of a booking (docs/decisions/026): "erschienen", "nicht erschienen", or null to undo. */
export const ATTENDANCES = ['arrived', 'no_show'] as const;
export type Attendance = (typeof ATTENDANCES)[number] | null;

/** PUT /api/admin/booked-slots/:id/attendance: `attendance` must be present; null undoes the mark. */
export const attendanceSchema = z.object({
  attendance: z.nullable(z.enum(ATTENDANCES, { error: 'admin.errors.attendanceInvalid' })),
});

/** A query's `from` or `to`: a real date. */
const rangeDate = z.string({ error: 'admin.errors.dateRequired' }).check(z.refine(isRealDate, 'admin.errors.dateRequired'));

/** `from` at most `to`, and at most `maxDays` days in all (named at `to`; unreal dates are refused at their own field). */
const withinDays = (maxDays: number) =>
  z.refine<{ from: string; to: string }>((q) => !isRealDate(q.from) || !isRealDate(q.to) || (q.from <= q.to && q.to <= addDaysToDate(q.from, maxDays - 1)), {
    path: ['to'],
    message: 'admin.errors.rangeInvalid',
  });

/** GET /api/admin/availability: a type and at most 62 days, as the public query. */
export const staffAvailabilityQuerySchema = z
  .object({ type: z.pipe(typeId, z.transform((id) => id.toLowerCase())), from: rangeDate, to: rangeDate })
  .check(withinDays(MAX_AVAILABILITY_DAYS));

/** At most this many days per GET /api/admin/holidays: a year and a day, so the settings page sees every holiday of the booking horizon. */
export const MAX_HOLIDAY_DAYS = 366;

/** GET /api/admin/holidays?from&to: the holidays of a range (docs/decisions/039-public-holidays.md). */
export const holidaysQuerySchema = z.object({ from: rangeDate, to: rangeDate }).check(withinDays(MAX_HOLIDAY_DAYS));

/** A stock that cannot be parsed counts as 0; a missing one is an error. */
const stock = (key: string) =>
  z.pipe(
    z.transform((v) => {
      if (typeof v === 'string') {
        const n = Number.parseInt(v.trim(), 10);
        return Number.isNaN(n) ? 0 : n;
      }
      if (typeof v === 'number' && Number.isNaN(v)) return 0;
      return v;
    }),
    z.number({ error: key }).check(z.int('admin.errors.stockInvalid'), z.gte(0, 'admin.errors.stockInvalid'), z.lte(1_000_000, 'admin.errors.stockInvalid')),
  );

export const inventoryItemSchema = z.object({
  name: requiredText('admin.errors.nameRequired', 200),
  article_number: optionalText(100),
  supplier: requiredText('admin.errors.supplierRequired', 200),
  expiry_date: optionalDate,
  current_stock: stock('admin.errors.currentStockRequired'),
  minimum_stock: stock('admin.errors.minimumStockRequired'),
  is_ordered: z._default(z.optional(z.boolean({ error: 'admin.errors.invalid' })), false),
  last_inventory_check: optionalDate,
  last_usage_date: optionalDate,
  notes: optionalText(2000, { multiline: true }),
});
export type InventoryItemInput = z.output<typeof inventoryItemSchema>;
export type InventoryItemForm = z.input<typeof inventoryItemSchema>;

/** PATCH /api/admin/inventory/:id: only the ordered flag. */
export const inventoryOrderedSchema = z.strictObject(
  { is_ordered: z.boolean({ error: 'admin.errors.invalid' }) },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? 'admin.errors.onlyIsOrdered' : 'admin.errors.invalid') },
);

/** GET /api/admin/booked-slots: an optional date range, both ends inclusive, at most 62 days. */
export const MAX_BOOKED_SLOTS_DAYS = 62;
const queryDate = z.string({ error: 'errors.dateInvalid' }).check(z.refine(isRealDate, 'errors.dateInvalid'));
export const bookedSlotsQuerySchema = z
  .object({
    from: z.optional(queryDate),
    to: z.optional(queryDate),
    /** Which staff view asks; it names the audit row of the names shown (docs/decisions/025). */
    view: z.optional(z.enum(['day-list', 'week', 'booked-list'], { error: 'admin.errors.invalid' })),
  })
  .check(
    z.superRefine((q, ctx) => {
      if ((q.from === undefined) !== (q.to === undefined)) {
        ctx.addIssue({ code: 'custom', path: [q.from === undefined ? 'from' : 'to'], message: 'errors.dateInvalid' });
      } else if (q.from !== undefined && q.to !== undefined && isRealDate(q.from) && isRealDate(q.to)) {
        if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'errors.rangeReversed' });
        else if (q.to > addDaysToDate(q.from, MAX_BOOKED_SLOTS_DAYS - 1)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'errors.rangeTooLong' });
      }
    }),
  );
export type BookedSlotsQuery = z.output<typeof bookedSlotsQuerySchema>;

/**
 * GET /api/admin/patients?q=: a name part (at least 2 characters), a birth date (dd.mm.yyyy or yyyy-mm-dd),
 * a phone number or a booking reference (src/server/admin/patient-match.server.ts).
 * The admin text rules (src/lib/admin-text.ts), a single line.
 */
export const patientSearchSchema = z.object({
  q: requiredText('admin.errors.searchTooShort', 100).check(z.refine((v) => visibleLength(v) >= 2, 'admin.errors.searchTooShort')),
});
