/**
 * The SMS port (docs/decisions/043-sms-second-channel.md), beside the email
 * port (../email/port.server.ts): what an SMS is and what sends it. The
 * adapters are seven.server.ts (seven.io) and outbox.server.ts (the local
 * stand-in); the factory (sms.server.ts) picks one. Another provider is one
 * more adapter.
 */

export interface SmsMessage {
  /** E.164, "+491711234567". */
  to: string;
  /** GSM-7, at most 306 characters (texts.server.ts). */
  text: string;
}

export interface SentSms {
  /** The provider's message id (the id its delivery reports name; the local stand-in's X-Message-Id). */
  id: string;
}

export interface SmsSender {
  readonly kind: 'seven' | 'outbox';
  send(message: SmsMessage): Promise<SentSms>;
}

/** A refusal no retry can mend (a number the provider will never reach, a text it will never take): the SMS fails at once. */
export class SmsRefusedError extends Error {
  constructor(readonly code: string) {
    super(`SMS refused (${code})`);
    this.name = 'SmsRefusedError';
  }
}
