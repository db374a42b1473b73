/**
 * STAND-IN until the durable outbox lands on main (this branch takes main's
 * file on merge): sends what queue.server.ts holds, after the answer
 * (deliverAfterResponse) and from the scheduled job (runDelivery).
 */
import { afterResponse, type RequestContext } from '../http.server';
import { createEmailSender } from './email.server';
import { pendingEmails } from './queue.server';

export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
}

export async function runDelivery(options: { ids?: string[] } = {}): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const ids = options.ids ?? [...pendingEmails.keys()];
  for (const id of ids) {
    const email = pendingEmails.get(id);
    if (!email) continue;
    pendingEmails.delete(id);
    try {
      await createEmailSender().send(email.message);
      result.sent++;
    } catch (error) {
      console.warn(`email ${email.kind} failed: ${(error as Error)?.name ?? 'unknown'}`);
      result.failed++;
    }
  }
  return result;
}

/** After the answer: send what this request queued (the job sends it otherwise). */
export function deliverAfterResponse(ctx: RequestContext, ids: string[]): void {
  if (ids.length === 0) return;
  afterResponse(ctx, 'email delivery', async () => {
    await runDelivery({ ids });
  });
}
