/**
 * One origin rule
 * (docs/decisions/028-hidden-characters-addresses-invitations-origin.md):
 * every state-changing route – the patient's booking, cancel and move
 * included – refuses a foreign Origin with 403 before it reads the body,
 * and changes nothing. Allowed origins:
 * tests/integration/origin-check.test.ts.
 */
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import bookings from '../../netlify/functions/bookings';
import cancel from '../../netlify/functions/bookings-cancel';
import reschedule from '../../netlify/functions/bookings-reschedule';
import { isStateChanging } from '../../src/server/auth/origin.server';
import type { Handler } from '../../src/server/http.server';
import { readOutbox } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { testPatient } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const EVIL = { origin: 'https://evil.example' };
const SITE = { origin: 'https://praxis.example' };

describe.each(databaseKinds)('the origin rule on %s', (kind) => {
  const t = useTestBed({ database: kind, dataDir: 'patient-origin-', env: { SITE_URL: 'https://praxis.example' } });
  let typeId: string;

  beforeAll(async () => {
    typeId = (await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 60, slotDurationMinutes: 20, maxSlotsPerTime: 1 })).id;
  });
  beforeEach(async () => {
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
  });

  /** A weekday a few weeks ahead, 09:00, bookable under the fixture's windows. */
  function slot(daysAhead: number) {
    const day = new Date(Date.now() + daysAhead * 86_400_000);
    while (day.getUTCDay() === 0 || day.getUTCDay() === 6) day.setUTCDate(day.getUTCDate() + 1);
    return { appointment_date: day.toISOString().slice(0, 10), appointment_time: '09:00' };
  }
  const bookingBody = (daysAhead: number) => ({ appointment_type_id: typeId, ...slot(daysAhead), ...testPatient, email: 'erika@example.org', language: 'de' });

  it('POST /api/bookings from https://evil.example: 403 before the body check, nothing stored or sent', async () => {
    for (const body of [{}, bookingBody(20)]) {
      const res = await call(bookings, '/api/bookings', { method: 'POST', body, headers: EVIL });
      expect(res.status).toBe(403);
      expect(res.json.type).toBe('forbidden');
    }
    // A browser that sends no Origin but says the request is cross-site is refused too.
    expect((await call(bookings, '/api/bookings', { method: 'POST', body: bookingBody(20), headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect(await t.db.select().from(bookedSlots)).toEqual([]);
    expect(await readOutbox(t.outbox)).toEqual([]);
    // From the site itself the body check answers.
    expect((await call(bookings, '/api/bookings', { method: 'POST', body: {}, headers: SITE })).status).toBe(400);
  });

  it('cancel and move through a link from https://evil.example: 403 before the body check; the booking stays where it was', async () => {
    const booked = await call(bookings, '/api/bookings', { method: 'POST', body: bookingBody(21), headers: SITE });
    expect(booked.status).toBe(201);
    const token = new URL(await linkOf()).searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });

    for (const body of [{}, { token }]) {
      const res = await call(cancel, '/api/bookings/cancel', { method: 'POST', body, headers: EVIL });
      expect(res.status).toBe(403);
      expect(res.json.type).toBe('forbidden');
    }
    for (const body of [{}, { token, ...slot(28) }]) {
      const res = await call(reschedule, '/api/bookings/reschedule', { method: 'POST', body, headers: EVIL });
      expect(res.status).toBe(403);
      expect(res.json.type).toBe('forbidden');
    }
    const [row] = await t.db.select().from(bookedSlots);
    expect(row).toMatchObject({ appointmentDate: bookingBody(21).appointment_date, appointmentTime: '09:00:00' });
    expect(await t.db.select().from(cancelledBookings)).toEqual([]);
    expect(await readOutbox(t.outbox)).toEqual([]);
    // Reading the booking (GET) needs no Origin; from the site the cancel works.
    expect((await call(cancel, '/api/bookings/cancel', { query: { token } })).status).toBe(200);
    expect((await call(cancel, '/api/bookings/cancel', { method: 'POST', body: { token }, headers: SITE })).status).toBe(200);
  });

  /** The cancellation link of the patient's confirmation email. */
  async function linkOf(): Promise<string> {
    const mails = await readOutbox(t.outbox);
    const text = mails.map((m) => m.text).join('\n');
    const link = /https:\/\/praxis\.example\/\S*token=[A-Za-z0-9_-]{43}/.exec(text);
    expect(link).not.toBeNull();
    return link![0];
  }
});

/** Routes no browser calls: the mail service's and the SMS provider's webhooks answer to their credentials, not to an Origin (docs/decisions/035, 043). */
const NOT_FOR_BROWSERS = new Set(['webhooks-postmark.ts', 'webhooks-sms.ts']);

describe('every state-changing route refuses a foreign Origin', () => {
  useTestBed({ database: 'pglite', env: { POSTMARK_WEBHOOK_USER: 'postmark', POSTMARK_WEBHOOK_PASSWORD: 'webhook-secret', SMS_WEBHOOK_SECRET: 'sms-webhook-secret' } });

  it('answers 403 to each POST, PUT, PATCH and DELETE from https://evil.example, before anything else', async () => {
    const dir = path.resolve('netlify/functions');
    const checked: string[] = [];
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort()) {
      const mod = (await import(/* @vite-ignore */ path.join(dir, file))) as { default: Handler; config: { path?: string | string[] } };
      if (!mod.config.path) continue;
      const route = [mod.config.path].flat()[0]!.replace(/:[a-z]+/gi, '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11').replace('*', 'x');
      const params = { id: '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11' };
      for (const method of (mod.default.allow ?? '').split(', ').filter(isStateChanging)) {
        const res = await call(mod.default, route, { method, body: {}, headers: EVIL, params });
        // Without its credentials a webhook refuses as firmly: 401 before it reads anything.
        expect(res.status, `${method} ${route} (${file})`).toBe(NOT_FOR_BROWSERS.has(file) ? 401 : 403);
        checked.push(`${method} ${file}`);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(['POST bookings.ts', 'POST bookings-cancel.ts', 'POST bookings-reschedule.ts', 'POST contact.ts', 'POST auth-login.ts']));
  });
});
