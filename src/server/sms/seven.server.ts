/**
 * The seven.io adapter of the SMS port (docs/decisions/043-sms-second-channel.md),
 * through seven.io's own client (`@seven.io/client`), loaded on first use:
 * functions that never send an SMS never evaluate it.
 *
 * seven.io answers every send with a code (`success`, and one per message):
 * 100 sent; 202 (recipient invalid), 301 (no recipient), 305 (text
 * invalid), 401 (text too long) and 201 (sender invalid) can never go and
 * fail at once; anything else (no credit, a network failure, an outage,
 * an unreadable answer) is tried again with the outbox's backoff.
 */
import { SmsRefusedError, type SmsSender } from './port.server';

const NEVER_DELIVERABLE = new Set(['201', '202', '301', '305', '401']);

export class SmsProviderError extends Error {
  constructor(readonly code: string) {
    super(`SMS provider answered ${code}`);
    this.name = 'SmsProviderError';
  }
}

interface SevenAnswer {
  success?: string | number;
  messages?: Array<{ id: string | number | null; success: boolean; error: string | null }>;
}

export function createSevenSender({ apiKey, from }: { apiKey: string; from: string }): SmsSender {
  let sms: { dispatch(p: { to: string[]; text: string; from?: string }): Promise<unknown> } | undefined;
  return {
    kind: 'seven',
    async send(message) {
      if (!sms) {
        const { Client, SmsResource } = await import('@seven.io/client');
        sms = new SmsResource(new Client({ apiKey, sentWith: 'praxis-website' })) as never;
      }
      let answer: SevenAnswer;
      try {
        answer = (await sms!.dispatch({ to: [message.to], text: message.text, from })) as SevenAnswer;
      } catch (error) {
        // The client throws "<code>: <text>" for a bare code answer (900: wrong key, 500: no credit, …).
        const code = /^(\d{3})\b/.exec((error as Error)?.message ?? '')?.[1];
        if (code && NEVER_DELIVERABLE.has(code)) throw new SmsRefusedError(code);
        throw code ? new SmsProviderError(code) : error;
      }
      const code = String(answer?.success ?? 'unreadable');
      const sent = answer?.messages?.[0];
      if (code === '100' && sent?.success && sent.id !== null && sent.id !== undefined) return { id: String(sent.id) };
      const failed = sent?.error ?? code;
      if (NEVER_DELIVERABLE.has(String(failed))) throw new SmsRefusedError(String(failed));
      throw new SmsProviderError(String(failed).slice(0, 20));
    },
  };
}
