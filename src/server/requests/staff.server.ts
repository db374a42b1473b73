/**
 * Reception's queue of patient requests (docs/decisions/036-patient-requests.md):
 * the list with every request's details opened in memory for a staff
 * answer (no-store, one audit row per answer with the count, never a
 * value), and the status changes, each audited (reference and kind, never
 * patient data) and, when done or declined, emailing the patient in the
 * same transaction through the outbox.
 */
import { and, asc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { patientRequests, type PatientRequestRow } from '../../../db/schema';
import { berlinToday } from '../../lib/berlin-time';
import { AppError } from '../../lib/errors';
import {
  NEXT_STATUSES,
  OPEN_STATUSES,
  type AdminRequestsQuery,
  type RequestKind,
  type RequestStatus,
  type RequestStatusChange,
} from '../../lib/request-schema';
import { KIND_LABELS_DE, STATUS_LABELS_DE } from '../../lib/request-texts';
import type { KeyRing } from '../appointment-contact/keys.server';
import { recordAudit, type AuditActor } from '../audit.server';
import { requestStatusEmail } from '../email/messages/requests.server';
import { enqueueEmails } from '../email/queue.server';
import { refuseUnconfirmedDetails, requestTerms } from '../admin/message-check.server';
import { requestStatusSms } from '../sms/notices.server';
import { CLOSED_RETENTION_DAYS } from './job.server';
import { openDetails, openMessage, sealedOf, sealMessage, type RequestDetails } from './seal.server';

/** What staff see of a request's details: everything the patient entered, never the status link's token. */
export type RequestDetailsDto = Omit<RequestDetails, 'token'>;

/** `present`; `unreadable` (no configured key opens them); `deleted` (the retention period has passed). */
export type DetailsState = 'present' | 'unreadable' | 'deleted';

export interface StaffRequestDto {
  id: string;
  reference: string;
  kind: RequestKind;
  status: RequestStatus;
  received_at: string;
  status_at: string;
  closed_at: string | null;
  details: RequestDetailsDto | null;
  details_state: DetailsState;
  /** The practice's message to the patient, once a status carried one. */
  message: string | null;
}

/** Closed requests are listed for this long after they arrived (their details are gone sooner). */
export const CLOSED_LIST_DAYS = 90;

/** Opens a row for staff; a value no configured key opens counts as unreadable (logged by kind, once per answer by the caller). */
function toDto(row: PatientRequestRow, keys: KeyRing | null): StaffRequestDto & { unreadable: boolean } {
  const sealed = sealedOf(row.keyId, row.sealed);
  let details: RequestDetailsDto | null = null;
  let state: DetailsState = sealed ? 'present' : 'deleted';
  let message: string | null = null;
  if (sealed) {
    try {
      if (!keys) throw new Error('no key configured');
      const { token: _token, ...opened } = openDetails(sealed, row.id, keys);
      details = opened;
      const sealedMessage = sealedOf(row.messageKeyId, row.messageSealed);
      if (sealedMessage) message = openMessage(sealedMessage, row.id, keys);
    } catch {
      state = 'unreadable';
    }
  }
  return {
    id: row.id,
    reference: row.reference,
    kind: row.kind as RequestKind,
    status: row.status as RequestStatus,
    received_at: row.createdAt.toISOString(),
    status_at: row.statusAt.toISOString(),
    closed_at: row.closedAt?.toISOString() ?? null,
    details,
    details_state: state,
    message,
    unreadable: state === 'unreadable',
  };
}

function openAll(rows: PatientRequestRow[], keys: KeyRing | null): StaffRequestDto[] {
  let unreadable = 0;
  const out = rows.map((row) => {
    const { unreadable: failed, ...dto } = toDto(row, keys);
    if (failed) unreadable++;
    return dto;
  });
  if (unreadable > 0) console.warn(`request details not opened: ${unreadable} request(s) under no configured key`);
  return out;
}

/** GET /api/admin/requests: by status (open by default) and kind, oldest first. */
export async function listRequests(db: Database, query: AdminRequestsQuery, keys: KeyRing | null, now: Date = new Date()): Promise<StaffRequestDto[]> {
  const filters: SQL[] = [];
  if (query.status === 'open') filters.push(inArray(patientRequests.status, [...OPEN_STATUSES]));
  else if (query.status !== 'all') filters.push(eq(patientRequests.status, query.status));
  // Closed requests only while they can matter; open ones however old (their details go after 90 days, the row stays to be closed).
  if (query.status !== 'open' && query.status !== 'new' && query.status !== 'in_progress') {
    filters.push(gte(patientRequests.createdAt, new Date(now.getTime() - CLOSED_LIST_DAYS * 24 * 60 * 60_000)));
  }
  if (query.kind) filters.push(eq(patientRequests.kind, query.kind));
  const rows = await db
    .select()
    .from(patientRequests)
    .where(and(...filters))
    .orderBy(asc(patientRequests.createdAt), asc(patientRequests.reference));
  return openAll(rows, keys);
}

const requestsCount = (n: number) => (n === 1 ? '1 Anfrage' : `${n} Anfragen`);

/** One audit row for an answer that showed patients' details (none when it showed none): the view and the count. */
export async function auditRequestsView(db: Executor, actor: AuditActor, rows: StaffRequestDto[], query: AdminRequestsQuery): Promise<void> {
  const shown = rows.filter((r) => r.details !== null).length;
  if (shown === 0) return;
  const filter = [query.status === 'open' ? 'offen' : query.status === 'all' ? 'alle' : STATUS_LABELS_DE[query.status], query.kind ? KIND_LABELS_DE[query.kind] : null]
    .filter(Boolean)
    .join(', ');
  await recordAudit(db, actor, { action: 'view', entity: 'patient-details', entityId: 'requests', label: `Anfragen (${filter}) angesehen: ${requestsCount(shown)}` });
}

/** "Anfrage Q2W3E4 (Folgerezept): erledigt" */
export function changeLabel(row: { reference: string; kind: string }, status: RequestStatus): string {
  return `Anfrage ${row.reference} (${KIND_LABELS_DE[row.kind as RequestKind] ?? row.kind}): ${STATUS_LABELS_DE[status]}`;
}

export interface ChangedRequest extends StaffRequestDto {
  /** Whether an email to the patient was queued (none while in progress, none once the details are gone). */
  patient_notified: boolean;
  /** The outbox ids to send after the answer. */
  emailIds: string[];
}

/**
 * PUT /api/admin/requests/:id. The row is locked, so two colleagues at
 * once cannot both close it: the second gets 409. Done and declined email
 * the patient (the kind, the reference, the message, the status link; never
 * what was asked for), queued in this transaction with the audit row.
 */
export async function changeRequestStatus(
  db: Database,
  actor: AuditActor,
  id: string,
  change: RequestStatusChange,
  options: { keys: KeyRing; siteUrl: string; now?: Date },
): Promise<ChangedRequest> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(patientRequests).where(eq(patientRequests.id, id)).for('update');
    if (!row) throw new AppError('not-found', 'Unbekannte Anfrage.');
    const from = row.status as RequestStatus;
    if (!NEXT_STATUSES[from].includes(change.status)) {
      throw new AppError('conflict', `Die Anfrage ist bereits „${STATUS_LABELS_DE[from]}“ und kann nicht mehr „${STATUS_LABELS_DE[change.status]}“ werden.`, undefined, {
        extra: { status: from },
      });
    }
    const closing = change.status === 'done' || change.status === 'declined';
    const message = closing ? (change.message ?? null) : null;
    const details = sealedOf(row.keyId, row.sealed);
    const patient = closing && details ? openDetailsOrNull(details, id, options.keys) : null;
    // Email is not confidential: a message naming what was asked for needs staff's confirmation (docs/decisions/041).
    if (patient) refuseUnconfirmedDetails(message, requestTerms(patient), change.confirm);
    const sealed = message ? sealMessage(message, id, options.keys) : null;
    const [updated] = await tx
      .update(patientRequests)
      .set({
        status: change.status,
        statusAt: now,
        closedAt: closing ? now : null,
        ...(sealed ? { messageKeyId: sealed.keyId, messageSealed: sealed.sealed } : {}),
      })
      .where(eq(patientRequests.id, id))
      .returning();
    const { unreadable: _unreadable, ...dto } = toDto(updated!, options.keys);
    let emailIds: string[] = [];
    if (closing) {
      if (patient) {
        emailIds = await enqueueEmails(
          tx,
          [
            {
              message: requestStatusEmail(
                patient,
                { kind: row.kind as RequestKind, reference: row.reference, status: change.status as 'done' | 'declined', message, receivedDate: berlinToday(row.createdAt) },
                options.siteUrl,
              ),
              kind: `request-${change.status}`,
              audience: 'patient',
              // Where the patient agreed: the status by SMS should the email not arrive (its reference and link, nothing else).
              sms: requestStatusSms({
                phone: patient.phone,
                sms: patient.sms,
                language: patient.language,
                requestId: id,
                reference: row.reference,
                status: change.status as 'done' | 'declined',
                token: patient.token,
                expiresAt: new Date(now.getTime() + CLOSED_RETENTION_DAYS * 24 * 60 * 60_000),
              }),
            },
          ],
          options.keys,
          now,
        );
      }
    }
    await recordAudit(tx, actor, { action: 'update', entity: 'patient-request', entityId: id, label: changeLabel(row, change.status) }, now);
    return { ...dto, patient_notified: emailIds.length > 0, emailIds };
  });
}

function openDetailsOrNull(value: { keyId: string; sealed: string }, id: string, keys: KeyRing): RequestDetails | null {
  try {
    return openDetails(value, id, keys);
  } catch (error) {
    console.warn(`request details not opened: ${(error as Error)?.name ?? 'unknown'}`);
    return null;
  }
}

/** The dashboard's and the navigation's figure: requests still new, and all open ones. */
export async function requestCounts(db: Executor): Promise<{ new: number; open: number }> {
  const [row] = await db
    .select({
      fresh: sql<number>`count(*) filter (where ${patientRequests.status} = 'new')::int`,
      open: sql<number>`count(*) filter (where ${patientRequests.status} in ('new', 'in_progress'))::int`,
    })
    .from(patientRequests);
  return { new: Number(row?.fresh ?? 0), open: Number(row?.open ?? 0) };
}
