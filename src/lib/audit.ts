/**
 * The audit trail's vocabulary (docs/decisions/010-staff-accounts-audit-day-list.md): which kinds
 * of things staff change and what they do to them. Shared by the server,
 * the filter query schema and the admin page's German labels.
 */
import * as z from './zod';
import { UUID } from './admin-schemas';

export const AUDIT_ENTITIES = [
  'appointment-type',
  'time-window',
  'blocked-date',
  'booked-slot',
  'inventory-item',
  'user',
  /** A page text or the practice facts, changed in the content editor (entity id: "de/home", "practice"). */
  'page',
  /** The waitlist with names, viewed (docs/decisions/032): the label counts the entries, never names them. */
  'waitlist',
  /** Practice-wide settings of the back office (entity id: "practice"). */
  'settings',
  /** A patient's request (docs/decisions/036): its status changed; the label names reference, kind and status, never what was asked for. */
  'patient-request',
  /** Patient details revealed to staff (entity id: the view, e.g. "day-list", "search"); the label names the view and the count, never a value. */
  'patient-details',
  /** A signed-in device of a staff account (entity id: the session id). */
  'session',
  /** "Systemstatus" viewed, or one's own operations alerts switched (docs/decisions/045-operations.md); entity id "system". */
  'system',
] as const;
export type AuditEntity = (typeof AUDIT_ENTITIES)[number];

/** `release` is the earlier "Slot freigeben", kept for older entries; staff now `cancel` (with notice) or `move`. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'release',
  'cancel',
  'move',
  /** Arrival marked or undone on the appointment's day (docs/decisions/026). */
  'attendance',
  /** "Patient erreicht": staff told the patient by phone of a change no email reached them with (docs/decisions/035). */
  'informed',
  'invite',
  'invitation-accept',
  'password-change',
  'password-reset',
  /** Patient details shown in a view (day list, week, booked list, search, waitlist): the label names the view and the count, never a value. */
  'view',
  /** Second factor (docs/decisions/027-staff-second-factor.md): set up, removed with a recovery code, reset by a colleague. */
  'second-factor-enrol',
  'second-factor-remove',
  'second-factor-reset',
  /** Passkeys (docs/decisions/037-passkeys-sessions-guessing.md): added or removed under "Mein Konto". */
  'passkey-add',
  'passkey-remove',
  /** A session ended by its owner ("Abmelden", "Alle anderen abmelden") or by an admin; entity `session`, the label names account and device. */
  'session-end',
  /** The code step closed after 30 wrong codes in a day (the account as actor: nobody chose it). */
  'code-step-close',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Entries are kept this long, then purged. */
export const AUDIT_RETENTION_MONTHS = 12;

/** GET /api/admin/audit?user=<id>&kind=<entity>; both optional, empty means "all". */
export const auditQuerySchema = z.object({
  user: z
    .pipe(
      z.optional(z.string()),
      z.transform((v) => (v ? v.toLowerCase() : undefined)),
    )
    .check(z.refine((v) => v === undefined || UUID.test(v), 'admin.errors.invalid')),
  kind: z.pipe(
    z.transform((v) => (v === '' ? undefined : v)),
    z.optional(z.enum(AUDIT_ENTITIES, { error: 'admin.errors.invalid' })),
  ),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
