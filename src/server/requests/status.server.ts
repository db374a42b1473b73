/**
 * The patient's status page (docs/decisions/036-patient-requests.md):
 * GET /api/requests/status?token=: kind, reference, when it arrived, its
 * status and the practice's message. The token is looked up by its SHA-256
 * only; an unknown one is 404. A read: nothing is written.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { patientRequests } from '../../../db/schema';
import { AppError } from '../../lib/errors';
import type { RequestKind, RequestStatus, RequestStatusDto } from '../../lib/request-schema';
import type { KeyRing } from '../appointment-contact/keys.server';
import { hashToken } from '../bookings/shared.server';
import { openMessage, sealedOf } from './seal.server';

export async function requestStatus(db: Database, token: string, keys: KeyRing | null): Promise<RequestStatusDto> {
  const [row] = await db
    .select({
      id: patientRequests.id,
      kind: patientRequests.kind,
      reference: patientRequests.reference,
      status: patientRequests.status,
      createdAt: patientRequests.createdAt,
      messageKeyId: patientRequests.messageKeyId,
      messageSealed: patientRequests.messageSealed,
    })
    .from(patientRequests)
    .where(eq(patientRequests.tokenHash, hashToken(token)));
  if (!row) throw new AppError('not-found', 'This status link is unknown.');
  const dto: RequestStatusDto = {
    kind: row.kind as RequestKind,
    reference: row.reference,
    received_at: row.createdAt.toISOString(),
    status: row.status as RequestStatus,
  };
  const sealed = sealedOf(row.messageKeyId, row.messageSealed);
  if (sealed && keys) {
    try {
      dto.message = openMessage(sealed, row.id, keys);
    } catch (error) {
      console.warn(`request message not opened: ${(error as Error)?.name ?? 'unknown'}`);
    }
  }
  return dto;
}
