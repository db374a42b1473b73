/**
 * The whole database schema (docs/architecture.md).
 *
 * Constraints live in the database, not only in zod, so that no code path
 * (an admin endpoint, a seed, a hand-written SQL session) can store a row
 * the booking rules could not make sense of.
 *
 * Privacy: no table holds patient data in clear. `booked_slots` keeps only
 * the type, the Berlin wall-clock date and time, the SHA-256 of the
 * cancellation token and when the row was made; `appointment_contacts`
 * holds what the emails about one online booking need, sealed, until the
 * booking is cancelled or its appointment has ended.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  time,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { referenceDefaultSql } from './booking-reference';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const appointmentTypes = pgTable(
  'appointment_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    nameEn: text('name_en'),
    description: text('description').notNull(),
    descriptionEn: text('description_en'),
    /** 0 = same day only, otherwise how many days ahead a date may lie. */
    maxAdvanceDays: integer('max_advance_days').notNull().default(14),
    slotDurationMinutes: integer('slot_duration_minutes').notNull().default(20),
    /** How many patients may book the same start time (capacity). */
    maxSlotsPerTime: integer('max_slots_per_time').notNull().default(1),
    /** Price in euro cents; null means no price is shown. */
    priceCents: integer('price_cents'),
    /** False: paused online (hidden from patients), still bookable by staff (docs/decisions/020-reception.md). */
    onlineBookable: boolean('online_bookable').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('appointment_types_name_not_blank', sql`length(btrim(${t.name})) between 1 and 100`),
    check('appointment_types_description_not_blank', sql`length(btrim(${t.description})) between 1 and 2000`),
    check('appointment_types_max_advance_days_range', sql`${t.maxAdvanceDays} between 0 and 365`),
    check(
      'appointment_types_slot_duration_range',
      sql`${t.slotDurationMinutes} between 5 and 180 and ${t.slotDurationMinutes} % 5 = 0`,
    ),
    check('appointment_types_max_slots_range', sql`${t.maxSlotsPerTime} between 1 and 10`),
    check('appointment_types_price_non_negative', sql`${t.priceCents} is null or ${t.priceCents} >= 0`),
  ],
);

export const appointmentTimeSlots = pgTable(
  'appointment_time_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appointmentTypeId: uuid('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    /** 0 = Sunday .. 6 = Saturday (JavaScript's getDay()). */
    dayOfWeek: smallint('day_of_week').notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('appointment_time_slots_day_of_week_range', sql`${t.dayOfWeek} between 0 and 6`),
    check('appointment_time_slots_start_before_end', sql`${t.startTime} < ${t.endTime}`),
    index('appointment_time_slots_type_day_idx').on(t.appointmentTypeId, t.dayOfWeek),
  ],
);

export const bookedSlots = pgTable(
  'booked_slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appointmentTypeId: uuid('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    appointmentDate: date('appointment_date').notNull(),
    appointmentTime: time('appointment_time').notNull(),
    /**
     * Which of the time's places (1 .. the type's max_slots_per_time) this
     * booking holds. Unique per (type, date, time) and checked against the
     * type's capacity by a trigger (booked_slots_seat_within_capacity), so
     * the database itself refuses an overbooking, whatever the code path.
     */
    seat: smallint('seat').notNull(),
    /**
     * Hex SHA-256 of the cancellation token; the token itself is never
     * stored. Null exactly for staff (phone) bookings: nobody holds a link.
     */
    cancellationTokenHash: text('cancellation_token_hash'),
    /** `online` (the wizard) or `phone` (entered by staff, no patient data). */
    source: text('source').notNull().default('online'),
    /**
     * Short human-readable reference (db/booking-reference.ts): 6
     * characters without look-alikes, unique over every stored row; the
     * database draws it.
     */
    reference: text('reference').notNull().default(sql.raw(referenceDefaultSql())),
    /** False when the practice's notification email failed: staff expect an unknown patient. */
    practiceNotified: boolean('practice_notified').notNull().default(true),
    /**
     * False when staff moved the booking and no email reached the patient
     * (a phone booking, no contact, or the email failed): staff call them.
     */
    patientNotified: boolean('patient_notified').notNull().default(true),
    /** iCalendar SEQUENCE of the booking's event: 0 when booked, one more with every move. */
    sequence: integer('sequence').notNull().default(0),
    /**
     * Arrival, marked by reception on the appointment's day: `arrived`
     * ("erschienen"), `no_show` ("nicht erschienen") or null (not marked).
     * A status of the booking, not patient data; kept with the booking.
     */
    attendance: text('attendance'),
    /**
     * "Patient erreicht": when staff marked that they told the patient by
     * phone, and who (the staff account's email, a staff label, never
     * patient data; docs/decisions/041). Null until marked; a later move
     * that needs a call again clears it.
     */
    informedAt: timestamp('informed_at', { withTimezone: true }),
    informedBy: text('informed_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check('booked_slots_sequence_non_negative', sql`${t.sequence} >= 0`),
    check('booked_slots_informed_by_length', sql`char_length(${t.informedBy}) <= 254`),
    check('booked_slots_attendance_known', sql`${t.attendance} is null or ${t.attendance} in ('arrived', 'no_show')`),
    check('booked_slots_token_hash_format', sql`${t.cancellationTokenHash} is null or ${t.cancellationTokenHash} ~ '^[0-9a-f]{64}$'`),
    check('booked_slots_seat_range', sql`${t.seat} between 1 and 10`),
    check('booked_slots_source_known', sql`${t.source} in ('online', 'phone')`),
    // Online bookings always have a link; a phone booking has one when the caller gave an email (docs/decisions/025).
    check('booked_slots_token_if_online', sql`${t.source} <> 'online' or ${t.cancellationTokenHash} is not null`),
    check('booked_slots_reference_format', sql`${t.reference} ~ '^[2-9A-HJKMNP-Z]{6}$'`),
    uniqueIndex('booked_slots_token_hash_idx').on(t.cancellationTokenHash),
    uniqueIndex('booked_slots_reference_idx').on(t.reference),
    uniqueIndex('booked_slots_type_date_time_seat_idx').on(t.appointmentTypeId, t.appointmentDate, t.appointmentTime, t.seat),
    index('booked_slots_date_time_idx').on(t.appointmentDate, t.appointmentTime),
  ],
);

export const blockedDates = pgTable(
  'blocked_dates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    date: date('date').notNull(),
    reason: text('reason'),
    /** Null blocks the date for every consultation type. */
    appointmentTypeId: uuid('appointment_type_id').references(() => appointmentTypes.id, {
      onDelete: 'cascade',
    }),
    /** Both null: the whole day. Otherwise appointments overlapping [start, end) are blocked. */
    startTime: time('start_time'),
    endTime: time('end_time'),
    /** The rows of one date range saved in one step share it (one row per day); null for a single day. */
    rangeId: uuid('range_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('blocked_dates_range_idx').on(t.rangeId),
    check('blocked_dates_reason_length', sql`${t.reason} is null or length(${t.reason}) <= 500`),
    check(
      'blocked_dates_time_range',
      sql`(${t.startTime} is null and ${t.endTime} is null) or (${t.startTime} is not null and ${t.endTime} is not null and ${t.startTime} < ${t.endTime})`,
    ),
    index('blocked_dates_date_idx').on(t.date),
  ],
);

export const inventoryItems = pgTable(
  'inventory_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    articleNumber: text('article_number'),
    supplier: text('supplier').notNull(),
    expiryDate: date('expiry_date'),
    currentStock: integer('current_stock').notNull().default(0),
    minimumStock: integer('minimum_stock').notNull().default(0),
    isOrdered: boolean('is_ordered').notNull().default(false),
    lastInventoryCheck: date('last_inventory_check'),
    lastUsageDate: date('last_usage_date'),
    notes: text('notes'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('inventory_items_name_not_blank', sql`length(btrim(${t.name})) between 1 and 200`),
    check('inventory_items_supplier_not_blank', sql`length(btrim(${t.supplier})) between 1 and 200`),
    check('inventory_items_current_stock_non_negative', sql`${t.currentStock} >= 0`),
    check('inventory_items_minimum_stock_non_negative', sql`${t.minimumStock} >= 0`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed. */
    email: text('email').notNull(),
    /** scrypt$N$r$p$salt$hash, see src/server/auth/password.server.ts */
    passwordHash: text('password_hash').notNull(),
    /**
     * Invited and not yet signed up: the password is a random secret nobody
     * knows until the colleague sets one through a link (which clears it).
     */
    invitationPending: boolean('invitation_pending').notNull().default(false),
    /**
     * Wrong codes (docs/decisions/037-passkeys-sessions-guessing.md): when
     * the owner was last emailed that their password is being used with
     * wrong codes (at most once a day), and when the code step was closed
     * after 30 wrong codes in a day (open again once the password is reset
     * by its emailed link or changed).
     */
    wrongCodeAlertAt: timestamp('wrong_code_alert_at', { withTimezone: true }),
    codeStepClosedAt: timestamp('code_step_closed_at', { withTimezone: true }),
    /** "Störungsmeldungen per E-Mail" under "Mein Konto": this admin gets the operations alerts too (docs/decisions/045-operations.md). */
    operationsAlerts: boolean('operations_alerts').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_idx').on(t.email),
    check('users_email_normalised', sql`${t.email} = lower(btrim(${t.email})) and position('@' in ${t.email}) > 1`),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('user_roles_role_known', sql`${t.role} in ('admin')`),
    uniqueIndex('user_roles_user_role_idx').on(t.userId, t.role),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Hex SHA-256 of the current refresh token; rotated on every refresh. */
    refreshTokenHash: text('refresh_token_hash').notNull(),
    /**
     * Hex SHA-256 of the token the last rotation replaced, and when: a
     * refresh that raced that rotation with the same token gets the same new
     * token within a short grace window instead of revoking the session.
     */
    previousRefreshTokenHash: text('previous_refresh_token_hash'),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * When this session passed the second factor (the code step of sign-in,
     * or confirming an enrolment in it); null for a session of an account
     * without one (docs/decisions/027-staff-second-factor.md).
     */
    secondFactorAt: timestamp('second_factor_at', { withTimezone: true }),
    /** Updated by sign-in and every refresh, not by every request ("Angemeldete Geräte"). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The browser's User-Agent at sign-in, cut to 512 characters: staff
     * data, shown as browser and system under "Angemeldete Geräte"; null
     * for sessions from before it was kept.
     */
    userAgent: text('user_agent'),
    /** A name its owner gives the session ("Empfang PC 2"), admin text rules, at most 60 characters; null: none (docs/decisions/041). */
    name: text('name'),
    /**
     * Who ended the session under "Angemeldete Geräte": `owner` or `admin`;
     * null while live or when it ended otherwise (sign-out, expiry, a
     * password change). The ended device's refresh answers why
     * (docs/decisions/041).
     */
    endedBy: text('ended_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check('sessions_refresh_hash_format', sql`${t.refreshTokenHash} ~ '^[0-9a-f]{64}$'`),
    check('sessions_name_length', sql`char_length(${t.name}) <= 60`),
    check('sessions_ended_by_known', sql`${t.endedBy} is null or ${t.endedBy} in ('owner', 'admin')`),
    check('sessions_user_agent_length', sql`char_length(${t.userAgent}) <= 512`),
    check('sessions_expiry_after_creation', sql`${t.expiresAt} > ${t.createdAt}`),
    uniqueIndex('sessions_refresh_token_hash_idx').on(t.refreshTokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

/** Failed logins, kept in the database because serverless instances share no memory. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * Hex HMAC (server key) of the lower-cased email that was tried, never
     * the email; `setup` for a first-admin setup attempt.
     */
    email: text('email').notNull(),
    /** Hex HMAC (server key) of the client address, never the address. */
    clientKey: text('client_key').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('login_attempts_email_time_idx').on(t.email, t.attemptedAt),
    index('login_attempts_client_time_idx').on(t.clientKey, t.attemptedAt),
  ],
);

/**
 * Contact messages accepted per client address, for the rate limit of
 * POST /api/contact (serverless instances share no memory). Only an HMAC of
 * the address and the time are kept: nothing of the message, not the
 * address itself. Rows older than the window are deleted as requests come.
 */
export const contactAttempts = pgTable(
  'contact_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Hex HMAC-SHA-256 of the client address. */
    clientKey: text('client_key').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('contact_attempts_client_key_format', sql`${t.clientKey} ~ '^[0-9a-f]{64}$'`),
    index('contact_attempts_client_time_idx').on(t.clientKey, t.attemptedAt),
  ],
);

/**
 * Abuse limits (src/server/rate-limit.server.ts): one row per (bucket, key)
 * holding the times of the hits inside the bucket's sliding window. The key
 * is an HMAC-SHA-256 with a server secret (of a client address, of an email
 * address), never the value itself. `expires_at` is when the last hit leaves
 * the window; rows past it are purged as requests come.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    /** Hex HMAC-SHA-256 of the limited value. */
    keyHash: text('key_hash').notNull(),
    hits: timestamp('hits', { withTimezone: true }).array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.bucket, t.keyHash] }),
    check('rate_limits_key_hash_format', sql`${t.keyHash} ~ '^[0-9a-f]{64}$'`),
    index('rate_limits_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * Single-use links that let a staff member set a password: a reset
 * ("Passwort vergessen", 30 minutes) or an invitation from a colleague
 * (48 hours). Only the SHA-256 of the token is stored
 * (docs/decisions/013-password-links-and-recovery.md); `used_at` makes it single-use.
 */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    /** Hex SHA-256 of the token sent by email. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('password_tokens_purpose_known', sql`${t.purpose} in ('reset', 'invitation')`),
    check('password_tokens_hash_format', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
    uniqueIndex('password_tokens_hash_idx').on(t.tokenHash),
    index('password_tokens_user_idx').on(t.userId),
  ],
);

/**
 * "Passwort vergessen" requests, for its rate limit (per address asked for
 * and per client). Only HMACs (server key) and the time are kept; rows past
 * the window are deleted as requests come.
 */
export const passwordResetAttempts = pgTable(
  'password_reset_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Hex HMAC-SHA-256 of `email:<address>` or `client:<ip>`. */
    key: text('key').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('password_reset_attempts_key_format', sql`${t.key} ~ '^[0-9a-f]{64}$'`),
    index('password_reset_attempts_key_time_idx').on(t.key, t.attemptedAt),
  ],
);

/**
 * Who changed what in the back office, kept 12 months
 * (docs/decisions/010-staff-accounts-audit-day-list.md). Never patient data: the staff member, the action, the kind
 * of entity and its id. No foreign key to users, so removing a colleague
 * keeps the record of their changes; their email at the time is kept too.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').notNull(),
    userEmail: text('user_email').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    /**
     * What was changed, readable, as it was at the time: a booking's
     * reference, a type's or item's name, a colleague's email; never
     * patient data. Null for entries written before labels existed.
     */
    label: text('label'),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('audit_log_action_format', sql`${t.action} ~ '^[a-z-]{1,40}$'`),
    check('audit_log_entity_format', sql`${t.entity} ~ '^[a-z-]{1,40}$'`),
    check('audit_log_entity_id_length', sql`length(${t.entityId}) between 1 and 100`),
    check('audit_log_label_length', sql`length(${t.label}) between 1 and 200`),
    index('audit_log_at_idx').on(t.at),
    index('audit_log_user_at_idx').on(t.userId, t.at),
    index('audit_log_entity_at_idx').on(t.entity, t.at),
  ],
);

/**
 * The appointment contact (docs/decisions/021-appointment-contact-and-practice-changes.md): what the emails
 * about one online booking need ({email, first name, last name, language,
 * cancellation token}), sealed AES-256-GCM with the id of the key that
 * sealed it (src/server/appointment-contact/). Written by the booking's own
 * statement; used only for emails about this appointment; deleted with the
 * booking (cancelled: the notice goes from the values read in the same
 * transaction) and at the latest once the appointment has ended, by the
 * scheduled job. The opt-in reminder is a send time on it.
 *
 * The earlier `reminders` table became a view over this one
 * (db/migrations/0010), so functions still live during a deploy keep
 * working; a later release drops the view.
 */
export const appointmentContacts = pgTable(
  'appointment_contacts',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => bookedSlots.id, { onDelete: 'cascade' }),
    /** Which key of DATA_ENCRYPTION_KEY sealed the value (16 hex digits). */
    keyId: text('key_id').notNull(),
    /** base64url(iv ‖ tag ‖ ciphertext), the booking id as associated data. */
    sealed: text('sealed').notNull(),
    /** The patient ticked the reminder box (it survives moves). */
    reminder: boolean('reminder').notNull().default(false),
    /** When the reminder is due (24 hours before, Berlin wall clock); null once sent or when none is wanted. */
    remindAt: timestamp('remind_at', { withTimezone: true }),
    /**
     * What the sealed value holds (docs/decisions/025): 1 = email, names,
     * language, token (sealed before staff saw patient details; the default,
     * so a function of the release before writes 1 during a deploy);
     * 2 = also birth date and phone, for online and phone bookings.
     */
    details: smallint('details').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check('appointment_contacts_details_known', sql`${t.details} in (1, 2)`),
    check('appointment_contacts_key_id_format', sql`${t.keyId} ~ '^[0-9a-f]{16}$'`),
    check('appointment_contacts_sealed_format', sql`${t.sealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('appointment_contacts_remind_only_if_wanted', sql`${t.remindAt} is null or ${t.reminder}`),
    index('appointment_contacts_remind_at_idx').on(t.remindAt),
  ],
);

/**
 * A cancelled booking (docs/decisions/021-appointment-contact-and-practice-changes.md): a tombstone with
 * no seat and no contact, kept until its date has passed, so the patient's
 * link answers 410 cancelled-by-practice (or cancelled-by-patient, after
 * the patient's own cancellation: docs/decisions/029) instead of "unknown";
 * the staff list shows the practice's ones struck through. It keeps the
 * booking's id (the calendar UID), reference and token hash.
 */
export const cancelledBookings = pgTable(
  'cancelled_bookings',
  {
    id: uuid('id').primaryKey(),
    appointmentTypeId: uuid('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    appointmentDate: date('appointment_date').notNull(),
    appointmentTime: time('appointment_time').notNull(),
    /** Hex SHA-256 of the booking's cancellation token; null for a phone booking. */
    cancellationTokenHash: text('cancellation_token_hash'),
    source: text('source').notNull(),
    reference: text('reference').notNull(),
    /**
     * Whether the patient was told: an email went (or is queued); false when
     * none could, or it bounced or finally failed ("bitte anrufen") until
     * staff mark the patient reached (docs/decisions/035).
     */
    patientNotified: boolean('patient_notified').notNull().default(false),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who cancelled: the practice (staff, blocks) or the patient through the link. */
    cancelledBy: text('cancelled_by').notNull().default('practice'),
    /**
     * A practice cancellation keeps the booking's sealed appointment contact
     * (same key ring, the booking id as associated data) until the end of
     * the appointment's day, when the tombstone itself goes, so staff can
     * call the patient (docs/decisions/035). Null for the patient's own.
     */
    contactKeyId: text('contact_key_id'),
    contactSealed: text('contact_sealed'),
    /** "Patient erreicht": when and by whom (a staff account's email; docs/decisions/041), as on booked_slots. */
    informedAt: timestamp('informed_at', { withTimezone: true }),
    informedBy: text('informed_by'),
  },
  (t) => [
    check('cancelled_bookings_contact_sealed_with_key', sql`(${t.contactSealed} is null) = (${t.contactKeyId} is null)`),
    check('cancelled_bookings_contact_key_id_format', sql`${t.contactKeyId} is null or ${t.contactKeyId} ~ '^[0-9a-f]{16}$'`),
    check('cancelled_bookings_contact_sealed_format', sql`${t.contactSealed} is null or ${t.contactSealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('cancelled_bookings_cancelled_by_known', sql`${t.cancelledBy} in ('practice', 'patient')`),
    check('cancelled_bookings_token_hash_format', sql`${t.cancellationTokenHash} is null or ${t.cancellationTokenHash} ~ '^[0-9a-f]{64}$'`),
    check('cancelled_bookings_source_known', sql`${t.source} in ('online', 'phone')`),
    check('cancelled_bookings_informed_by_length', sql`char_length(${t.informedBy}) <= 254`),
    uniqueIndex('cancelled_bookings_token_hash_idx').on(t.cancellationTokenHash),
    index('cancelled_bookings_date_idx').on(t.appointmentDate),
  ],
);

/**
 * A staff member's TOTP second factor (docs/decisions/027-staff-second-factor.md).
 * The secret is sealed AES-256-GCM with the appointment contacts' key ring
 * (the user id as associated data). `confirmed_at` is null while an
 * enrolment waits for its first code; `last_step` is the 30-s step of the
 * newest accepted code, so a code is accepted once.
 */
export const staffSecondFactors = pgTable(
  'staff_second_factors',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyId: text('key_id').notNull(),
    sealed: text('sealed').notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    lastStep: bigint('last_step', { mode: 'number' }),
    /**
     * The session that started a setup still waiting for its first code:
     * only it may confirm it, and no other live session replaces it
     * (docs/decisions/037-passkeys-sessions-guessing.md).
     */
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('staff_second_factors_key_id_format', sql`${t.keyId} ~ '^[0-9a-f]{16}$'`),
    check('staff_second_factors_sealed_format', sql`${t.sealed} ~ '^[A-Za-z0-9_-]+$'`),
  ],
);

/** One-time recovery codes of a second factor: an HMAC (server key) of each code, never the code. */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('staff_recovery_codes_hash_format', sql`${t.codeHash} ~ '^[0-9a-f]{64}$'`),
    uniqueIndex('staff_recovery_codes_user_hash_idx').on(t.userId, t.codeHash),
  ],
);

/**
 * A staff member's passkeys (WebAuthn; docs/decisions/037-passkeys-sessions-guessing.md):
 * the credential id and COSE public key as the authenticator made them
 * (base64url), its signature counter, how the browser reaches it
 * (transports), and the name its owner gave it. The public key is no
 * secret, but the API never shows it.
 */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('staff_passkeys_credential_id_idx').on(t.credentialId),
    index('staff_passkeys_user_idx').on(t.userId),
    check('staff_passkeys_credential_id_format', sql`${t.credentialId} ~ '^[A-Za-z0-9_-]+$' and char_length(${t.credentialId}) between 16 and 1366`),
    check('staff_passkeys_public_key_format', sql`${t.publicKey} ~ '^[A-Za-z0-9_-]+$'`),
    check('staff_passkeys_counter_non_negative', sql`${t.counter} >= 0`),
    check('staff_passkeys_name_length', sql`char_length(${t.name}) between 1 and 60`),
  ],
);

/**
 * Single-use, short-lived proofs of a sign-in step, kept on the server
 * (docs/decisions/037-passkeys-sessions-guessing.md): a passkey
 * registration's challenge (bound to the session that asked), a passkey
 * sign-in's challenge (bound to a cookie of the browser that asked), and
 * the pending sign-in between password and code. `used_at` is set by the
 * one UPDATE that spends it.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
    /** The WebAuthn challenge (base64url); null for a pending sign-in. */
    challenge: text('challenge'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('auth_challenges_purpose_known', sql`${t.purpose} in ('passkey-register', 'passkey-login', 'second-factor')`),
    check('auth_challenges_challenge_format', sql`${t.challenge} ~ '^[A-Za-z0-9_-]{16,128}$'`),
    index('auth_challenges_expires_idx').on(t.expiresAt),
  ],
);

/** Practice-wide settings of the back office: one row (id = true). */
export const practiceSettings = pgTable(
  'practice_settings',
  {
    id: boolean('id').primaryKey().default(true),
    /** "Zwei-Faktor-Pflicht": accounts without a second factor must enrol before anything else. */
    requireSecondFactor: boolean('require_second_factor').notNull().default(false),
    /** Which kinds of patient request the public form offers (docs/decisions/036-patient-requests.md); all on until the practice says otherwise. */
    requestsPrescription: boolean('requests_prescription').notNull().default(true),
    requestsReferral: boolean('requests_referral').notNull().default(true),
    requestsCallback: boolean('requests_callback').notNull().default(true),
    /** The practice's notice above the request form, per language ("Bestellungen bis 11 Uhr liegen am nächsten Werktag bereit"); null: none. */
    requestsNoticeDe: text('requests_notice_de'),
    requestsNoticeEn: text('requests_notice_en'),
    /** When the practice was last told of new requests (at most one notice per 15 minutes); null: never. */
    requestsNoticedAt: timestamp('requests_noticed_at', { withTimezone: true }),
    /**
     * Public holidays (NRW) are closed for online booking (docs/decisions/039-public-holidays.md):
     * the ones the practice opens all the same (an emergency service), yyyy-MM-dd.
     */
    holidaysOpened: date('holidays_opened').array().notNull().default(sql`'{}'::date[]`),
    /** 24 and 31 December closed too (not public holidays in NRW); off until the practice says so. */
    closeDec24: boolean('close_dec_24').notNull().default(false),
    closeDec31: boolean('close_dec_31').notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [check('practice_settings_single_row', sql`${t.id}`)],
);

export type AppointmentTypeRow = typeof appointmentTypes.$inferSelect;
export type TimeWindowRow = typeof appointmentTimeSlots.$inferSelect;
export type BookedSlotRow = typeof bookedSlots.$inferSelect;
export type BlockedDateRow = typeof blockedDates.$inferSelect;
export type InventoryItemRow = typeof inventoryItems.$inferSelect;
export type AppointmentContactRow = typeof appointmentContacts.$inferSelect;
export type CancelledBookingRow = typeof cancelledBookings.$inferSelect;

/**
 * A patient's wish for an earlier time of a type (docs/decisions/032): with
 * a booking (`booking_id`, deleted with it) or without one. Everything the
 * patient entered (email, names, language, birth date) and the entry's own
 * link token are sealed like appointment contacts, the entry id as
 * associated data; only the token's SHA-256 is kept in clear. Deleted when
 * taken, withdrawn, its range has passed or its booking is cancelled.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appointmentTypeId: uuid('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    /** The booking to be moved earlier; null for a patient without one. One entry per booking. */
    bookingId: uuid('booking_id').references(() => bookedSlots.id, { onDelete: 'cascade' }),
    fromDate: date('from_date').notNull(),
    toDate: date('to_date').notNull(),
    /** ISO weekdays as bits: Monday = 1, Tuesday = 2, …, Sunday = 64; 127 = any day. */
    weekdays: smallint('weekdays').notNull().default(127),
    /** 1 = morning (before 12:00), 2 = afternoon; 3 = either. */
    dayparts: smallint('dayparts').notNull().default(3),
    keyId: text('key_id').notNull(),
    sealed: text('sealed').notNull(),
    /** Hex SHA-256 of the entry's link token ("Von der Liste nehmen"). */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('waitlist_entries_range', sql`${t.fromDate} <= ${t.toDate}`),
    check('waitlist_entries_weekdays', sql`${t.weekdays} between 1 and 127`),
    check('waitlist_entries_dayparts', sql`${t.dayparts} between 1 and 3`),
    check('waitlist_entries_key_id_format', sql`${t.keyId} ~ '^[0-9a-f]{16}$'`),
    check('waitlist_entries_sealed_format', sql`${t.sealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('waitlist_entries_token_hash_format', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
    uniqueIndex('waitlist_entries_booking_idx').on(t.bookingId),
    uniqueIndex('waitlist_entries_token_hash_idx').on(t.tokenHash),
    index('waitlist_entries_type_created_idx').on(t.appointmentTypeId, t.createdAt),
  ],
);

/**
 * One emailed offer of a freed time to one entry: no patient data, only the
 * time and the link token's SHA-256. When the entry goes (taken, withdrawn,
 * purged) the row stays without it until the time has passed, so its link
 * answers 410 rather than "unknown".
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entryId: uuid('entry_id').references(() => waitlistEntries.id, { onDelete: 'set null' }),
    appointmentTypeId: uuid('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    appointmentDate: date('appointment_date').notNull(),
    appointmentTime: time('appointment_time').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    /** The booking this offer's link became (taken), so the link shows it: null until then, or once that booking is gone. */
    bookingId: uuid('booking_id').references(() => bookedSlots.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('waitlist_offers_token_hash_format', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
    uniqueIndex('waitlist_offers_token_hash_idx').on(t.tokenHash),
    index('waitlist_offers_entry_time_idx').on(t.entryId, t.appointmentTypeId, t.appointmentDate, t.appointmentTime),
    index('waitlist_offers_time_idx').on(t.appointmentTypeId, t.appointmentDate, t.appointmentTime),
  ],
);

/**
 * When a time of a type last became free (from full, blocked or outside the
 * windows to bookable), written by the change that freed it in its own
 * transaction (docs/decisions/038-waitlist-offers-for-freed-times.md). Only while some entry waits
 * for that type and day; an offer goes only to entries made before
 * `freed_at`, so a time that was free all along is never "frei geworden".
 */
export const waitlistFreedTimes = pgTable(
  'waitlist_freed_times',
  {
    appointmentTypeId: uuid('appointment_type_id')
      .notNull()
      .references(() => appointmentTypes.id, { onDelete: 'cascade' }),
    appointmentDate: date('appointment_date').notNull(),
    appointmentTime: time('appointment_time').notNull(),
    freedAt: timestamp('freed_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.appointmentTypeId, t.appointmentDate, t.appointmentTime] })],
);

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect;
export type WaitlistOfferRow = typeof waitlistOffers.$inferSelect;

/**
 * The durable email outbox (docs/decisions/035-email-outbox.md): every
 * email a change promises is written here, sealed like appointment contacts
 * (the row's id as associated data), in the change's own transaction, and
 * sent after the answer and by the every-minute job. A sender claims a row
 * with a lease (`lease_until`), so two runs never send it at once; a
 * failure waits (1, 5, 15, 60 minutes, then hourly) up to 24 hours, then
 * the row is `failed`. The body (`sealed`) is deleted 7 days after sending;
 * id, kind, status and the provider's id stay while the booking does.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** What the message is (e.g. `booking-confirmation`, `practice-cancelled`); never patient data. */
    kind: text('kind').notNull(),
    /** Who reads it: `patient`, `practice` (the practice's mailbox) or `staff` (a staff account). */
    audience: text('audience').notNull(),
    /**
     * How it goes: `email` or `sms`. One outbox for both channels, with the
     * same transaction, lease, retries, give-up and body retention; the
     * table keeps the name it had when email was the only channel.
     */
    channel: text('channel').notNull().default('email'),
    /** The booking it is about (live or cancelled); null for account emails and the like. No foreign key: the tombstone keeps the id. */
    bookingId: uuid('booking_id'),
    /** Which key of DATA_ENCRYPTION_KEY sealed the body; null once the body is deleted. */
    keyId: text('key_id'),
    /** The whole message (recipient, subject, bodies, attachments), sealed; null once deleted. */
    sealed: text('sealed'),
    /** `pending` → `sent` → `delivered` | `bounced` | `complained`; `failed` after 24 hours of refusals or a permanent refusal. */
    status: text('status').notNull().default('pending'),
    attempts: smallint('attempts').notNull().default(0),
    /** When the next attempt may start. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A sender's claim: until then no other run takes the row. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** The provider's id of the sent message (Postmark's MessageID, the SMS provider's id; the local outbox's X-Message-Id). */
    providerId: text('provider_id'),
    /** The kind of the last failure (an error's name or the service's code), never a message text. */
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the mail service last reported on it (delivered, bounced, complained). */
    eventAt: timestamp('event_at', { withTimezone: true }),
    createdAt: createdAt(),
    /**
     * An SMS that may go during the quiet hours (20:00–07:00 Berlin): a
     * cancellation of an appointment before noon of the next day
     * (docs/decisions/043-sms-second-channel.md). False for every email.
     */
    quietExempt: boolean('quiet_exempt').notNull().default(false),
    /** The email this SMS stands in for (it bounced or finally failed); one SMS per email. */
    fallbackOf: uuid('fallback_of'),
    /** An SMS's billed parts (1 or 2), counted in `sms_usage` when handed to the provider; null for an email. */
    parts: smallint('parts'),
  },
  (t) => [
    check('email_outbox_status_known', sql`${t.status} in ('pending', 'sent', 'delivered', 'bounced', 'complained', 'failed')`),
    check('email_outbox_audience_known', sql`${t.audience} in ('patient', 'practice', 'staff')`),
    check('email_outbox_channel_known', sql`${t.channel} in ('email', 'sms')`),
    check('email_outbox_kind_format', sql`${t.kind} ~ '^[a-z0-9-]{1,40}$'`),
    check('email_outbox_sealed_with_key', sql`(${t.sealed} is null) = (${t.keyId} is null)`),
    check('email_outbox_key_id_format', sql`${t.keyId} is null or ${t.keyId} ~ '^[0-9a-f]{16}$'`),
    check('email_outbox_sealed_format', sql`${t.sealed} is null or ${t.sealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('email_outbox_pending_has_body', sql`${t.status} <> 'pending' or ${t.sealed} is not null`),
    index('email_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('email_outbox_booking_idx').on(t.bookingId, t.createdAt),
    // Each provider's ids are its own: an SMS provider's id may look like a mail service's.
    uniqueIndex('email_outbox_channel_provider_id_idx').on(t.channel, t.providerId),
    uniqueIndex('email_outbox_fallback_of_idx').on(t.fallbackOf).where(sql`${t.fallbackOf} is not null`),
    check('email_outbox_parts_range', sql`${t.parts} is null or ${t.parts} between 1 and 2`),
  ],
);

/**
 * SMS handed to the provider per Berlin month, in billed parts (a text of
 * 161–306 GSM-7 characters is two), kept apart from the outbox because
 * outbox rows are purged and a bill is not (docs/decisions/043-sms-second-channel.md).
 * `limit_noticed_at`: when the owner was told that SMS_MONTHLY_LIMIT was
 * reached this month (once a month).
 */
export const smsUsage = pgTable(
  'sms_usage',
  {
    /** yyyy-MM, Berlin. */
    month: text('month').primaryKey(),
    parts: integer('parts').notNull().default(0),
    limitNoticedAt: timestamp('limit_noticed_at', { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('sms_usage_month_format', sql`${t.month} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
    check('sms_usage_parts_non_negative', sql`${t.parts} >= 0`),
  ],
);

/**
 * Short links in SMS (`/k/<code>`, docs/decisions/043-sms-second-channel.md):
 * only the SHA-256 of the random code is kept; the page it leads to (whose
 * address carries a link token) is sealed like appointment contacts, the
 * code's hash as associated data. Each points at exactly one booking,
 * waitlist offer or patient request and goes with it (foreign keys), at
 * the latest at `expires_at` (the scheduled job).
 */
export const shortLinks = pgTable(
  'short_links',
  {
    codeHash: text('code_hash').primaryKey(),
    bookingId: uuid('booking_id').references(() => bookedSlots.id, { onDelete: 'cascade' }),
    offerId: uuid('offer_id').references(() => waitlistOffers.id, { onDelete: 'cascade' }),
    requestId: uuid('request_id').references(() => patientRequests.id, { onDelete: 'cascade' }),
    keyId: text('key_id').notNull(),
    sealed: text('sealed').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('short_links_code_hash_format', sql`${t.codeHash} ~ '^[0-9a-f]{64}$'`),
    check('short_links_key_id_format', sql`${t.keyId} ~ '^[0-9a-f]{16}$'`),
    check('short_links_sealed_format', sql`${t.sealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('short_links_one_target', sql`num_nonnulls(${t.bookingId}, ${t.offerId}, ${t.requestId}) = 1`),
    index('short_links_booking_idx').on(t.bookingId),
    index('short_links_offer_idx').on(t.offerId),
    index('short_links_request_idx').on(t.requestId),
    index('short_links_expires_idx').on(t.expiresAt),
  ],
);

export type EmailOutboxRow = typeof emailOutbox.$inferSelect;

/**
 * A patient's request (docs/decisions/036-patient-requests.md): a repeat
 * prescription, a referral or a call-back, without an account. Everything
 * the patient entered (names, birth date, email, phone, language, the
 * medications, specialty, reason, topic, note) is sealed like appointment
 * contacts, the request id as associated data; so is the practice's
 * message. In clear: kind, status, dates, the reference and the SHA-256 of
 * the status link's token. The sealed values are deleted 14 days after the
 * request was closed (done or declined) or 90 days after it arrived
 * (REQUEST_RETENTION_DAYS may shorten both); the row stays for the counts.
 */
export const patientRequests = pgTable(
  'patient_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 6 characters without look-alikes, like a booking's (db/booking-reference.ts); the database draws it. */
    reference: text('reference').notNull().default(sql.raw(referenceDefaultSql())),
    /** `prescription` (Folgerezept), `referral` (Überweisung) or `callback` (Rückruf). */
    kind: text('kind').notNull(),
    /** `new` → `in_progress` → `done` | `declined`. */
    status: text('status').notNull().default('new'),
    /** Which key of DATA_ENCRYPTION_KEY sealed the details; null once deleted. */
    keyId: text('key_id'),
    /** The patient's details, sealed; null once deleted. */
    sealed: text('sealed'),
    /** The practice's message to the patient (done: optional, declined: required), sealed; null when none or deleted. */
    messageKeyId: text('message_key_id'),
    messageSealed: text('message_sealed'),
    /** Hex SHA-256 of the status link's token; the token itself is only in the patient's email. */
    tokenHash: text('token_hash').notNull(),
    /** Counted in a notice to the practice ("2 neue Anfragen"). */
    practiceNoticed: boolean('practice_noticed').notNull().default(false),
    /** When the status last changed. */
    statusAt: timestamp('status_at', { withTimezone: true }).notNull().defaultNow(),
    /** When it was done or declined; null while open. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** When the sealed values were deleted; null while kept. */
    purgedAt: timestamp('purged_at', { withTimezone: true }),
    /**
     * Hex HMAC (server key) of kind, email and details: while set, the same
     * request again is this one (same reference, no second row or receipt).
     * Cleared 10 minutes after created_at, or once the request is closed
     * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
     */
    duplicateKey: text('duplicate_key'),
    createdAt: createdAt(),
  },
  (t) => [
    check('patient_requests_kind_known', sql`${t.kind} in ('prescription', 'referral', 'callback')`),
    check('patient_requests_status_known', sql`${t.status} in ('new', 'in_progress', 'done', 'declined')`),
    check('patient_requests_closed_when_done', sql`(${t.closedAt} is not null) = (${t.status} in ('done', 'declined'))`),
    check('patient_requests_sealed_with_key', sql`(${t.sealed} is null) = (${t.keyId} is null)`),
    check('patient_requests_message_with_key', sql`(${t.messageSealed} is null) = (${t.messageKeyId} is null)`),
    check('patient_requests_key_id_format', sql`${t.keyId} is null or ${t.keyId} ~ '^[0-9a-f]{16}$'`),
    check('patient_requests_message_key_id_format', sql`${t.messageKeyId} is null or ${t.messageKeyId} ~ '^[0-9a-f]{16}$'`),
    check('patient_requests_sealed_format', sql`${t.sealed} is null or ${t.sealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('patient_requests_message_sealed_format', sql`${t.messageSealed} is null or ${t.messageSealed} ~ '^[A-Za-z0-9_-]+$'`),
    check('patient_requests_token_hash_format', sql`${t.tokenHash} ~ '^[0-9a-f]{64}$'`),
    check('patient_requests_reference_format', sql`${t.reference} ~ '^[2-9A-HJKMNP-Z]{6}$'`),
    check('patient_requests_duplicate_key_format', sql`${t.duplicateKey} is null or ${t.duplicateKey} ~ '^[0-9a-f]{64}$'`),
    uniqueIndex('patient_requests_reference_idx').on(t.reference),
    uniqueIndex('patient_requests_duplicate_key_idx').on(t.duplicateKey).where(sql`${t.duplicateKey} is not null`),
    uniqueIndex('patient_requests_token_hash_idx').on(t.tokenHash),
    index('patient_requests_status_created_idx').on(t.status, t.createdAt),
    index('patient_requests_unnoticed_idx').on(t.createdAt).where(sql`not ${t.practiceNoticed}`),
  ],
);

export type PatientRequestRow = typeof patientRequests.$inferSelect;

/**
 * The every-minute job's heartbeat (docs/decisions/045-operations.md): one
 * row, written at the end of every run with its outcome. /api/health and
 * "Systemstatus" read it; a run older than 5 minutes alerts the owner.
 */
export const jobHeartbeat = pgTable(
  'job_heartbeat',
  {
    id: boolean('id').primaryKey().default(true),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
    /** `ok`, or `failed` when any step threw (the other steps still ran). */
    outcome: text('outcome').notNull(),
    /** The names of the steps that threw, comma-separated (`reminders,delivery`); null when none did. */
    failedSteps: text('failed_steps'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [
    check('job_heartbeat_single_row', sql`${t.id}`),
    check('job_heartbeat_outcome_known', sql`${t.outcome} in ('ok', 'failed')`),
    check('job_heartbeat_failed_steps_format', sql`${t.failedSteps} is null or ${t.failedSteps} ~ '^[a-z-]+(,[a-z-]+)*$'`),
  ],
);

/**
 * One row per kind of operations alert (`job`, `outbox`, `keys`,
 * `practice-mail`; docs/decisions/045-operations.md): the state serverless
 * instances share, so the owner gets at most one alert per kind per hour
 * and one "wieder in Ordnung" when it clears.
 */
export const operationsAlerts = pgTable(
  'operations_alerts',
  {
    kind: text('kind').primaryKey(),
    /** When the current episode began; null while all is well. */
    since: timestamp('since', { withTimezone: true }),
    /** When an alert of this kind last went out (any episode). */
    alertedAt: timestamp('alerted_at', { withTimezone: true }),
    /** Whether the current (or last) episode was announced, so its end is too. */
    episodeAlerted: boolean('episode_alerted').notNull().default(false),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
  },
  (t) => [check('operations_alerts_kind_format', sql`${t.kind} ~ '^[a-z-]{1,30}$'`)],
);
