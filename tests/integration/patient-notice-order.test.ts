/**
 * A booking's patient notice is its latest message to the patient. A
 * fallback SMS is queued in the very instant its email gives up (one
 * delivery run, one `now`), so both rows can carry the same time: the SMS
 * must still count as the later, whatever order the database keeps them in.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox } from '../../db/schema';
import { patientChannelSql, patientNoticeSql } from '../../src/server/admin/booked-slots.server';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const AT = new Date('2030-01-07T08:00:00Z');

describe.each(databaseKinds)('the patient notice on %s', (kind) => {
  const t = useTestBed({ database: kind });

  async function noticeOf(bookingId: string) {
    const result = (await t.db.execute(
      sql`select ${patientNoticeSql(sql`${bookingId}::uuid`)} as notice, ${patientChannelSql(sql`${bookingId}::uuid`)} as channel`,
    )) as unknown as { rows: Array<{ notice: string; channel: string }> };
    return result.rows[0];
  }

  it.each([
    ['the email written first', false],
    ['the SMS written first', true],
  ])('an email given up and its fallback SMS at the same instant: the SMS is the notice (%s)', async (_, smsFirst) => {
    const bookingId = randomUUID();
    const emailId = randomUUID();
    const email = { id: emailId, kind: 'booking-confirmation', audience: 'patient', channel: 'email', bookingId, status: 'failed', createdAt: AT };
    const sms = { id: randomUUID(), kind: 'booking-confirmation', audience: 'patient', channel: 'sms', bookingId, status: 'sent', createdAt: AT, fallbackOf: emailId };
    for (const row of smsFirst ? [sms, email] : [email, sms]) await t.db.insert(emailOutbox).values(row);
    expect(await noticeOf(bookingId)).toEqual({ notice: 'sms_sent', channel: 'sms' });
  });

  it('a later message still wins over an earlier fallback', async () => {
    const bookingId = randomUUID();
    const emailId = randomUUID();
    await t.db.insert(emailOutbox).values([
      { id: emailId, kind: 'booking-confirmation', audience: 'patient', channel: 'email', bookingId, status: 'failed', createdAt: AT },
      { id: randomUUID(), kind: 'booking-confirmation', audience: 'patient', channel: 'sms', bookingId, status: 'sent', createdAt: AT, fallbackOf: emailId },
      { id: randomUUID(), kind: 'booking-cancelled', audience: 'patient', channel: 'email', bookingId, status: 'sent', createdAt: new Date(AT.getTime() + 60_000) },
    ]);
    expect(await noticeOf(bookingId)).toEqual({ notice: 'sent', channel: 'email' });
  });
});
