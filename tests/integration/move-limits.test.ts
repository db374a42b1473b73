/**
 * Moves through a cancellation link are limited (docs/decisions/016-move-limits.md): per
 * booking and per client, 429 with Retry-After, and a refused move sends the
 * practice no notice; a move the booking rules refuse costs the booking
 * nothing. Before: one booking moved back and forth 40 times in
 * 1.5 s sent 40 notices.
 */
import { rm } from 'node:fs/promises';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import reschedule from '../../netlify/functions/bookings-reschedule';
import { bookedSlots, rateLimits } from '../../db/schema';
import { insertBooking } from '../../src/server/bookings/slot-sql.server';
import { hashToken, newCancellationToken } from '../../src/server/bookings/shared.server';
import { MOVES_PER_BOOKING, MOVES_PER_CLIENT } from '../../src/server/rate-limit.server';
import { call, settled } from '../helpers/http';
import { readOutbox } from '../helpers/eml';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

// Monday 7 January 2030, 07:00 in Berlin: the whole week lies ahead.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const TIMES = Array.from({ length: 16 }, (_, i) => {
  const m = 8 * 60 + 20 + i * 20;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
});

describe.each(databaseKinds)('move limits on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'move-limits-', env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example' } });
  let typeId: string;
  const notices = async () => (await readOutbox(t.outbox)).filter((m) => m.headers.to === 'team@praxis.example');
  const move = (token: string, date: string, time: string, ip = '192.0.2.10', language = 'de') =>
    call(reschedule, '/api/bookings/reschedule', { method: 'POST', body: { token, appointment_date: date, appointment_time: time, language }, ip });
  /** A booking on Tuesday at the i-th time, with its link token. */
  const booking = async (i: number) => {
    const token = newCancellationToken();
    const date = i < TIMES.length ? '2030-01-08' : '2030-01-09';
    expect('booked' in (await insertBooking(t.db, { typeId, date, time: TIMES[i % TIMES.length]!, tokenHash: hashToken(token) }))).toBe(true);
    return token;
  };

  beforeAll(async () => {
    const type = await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 });
    typeId = type.id;
  });
  beforeEach(async () => {
    vi.setSystemTime(NOW);
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await t.db.delete(bookedSlots);
    await t.db.delete(rateLimits);
    await settled();
    await rm(t.outbox, { recursive: true, force: true });
  });

  it(`one booking moved back and forth 40 times: ${MOVES_PER_BOOKING.max} moves and ${MOVES_PER_BOOKING.max} notices, then 429 with Retry-After, the appointment where the last move put it`, async () => {
    const token = await booking(0);
    const statuses: number[] = [];
    let last: { status: number; headers: Headers; json: any } | undefined;
    for (let i = 0; i < 40; i++) {
      // Each from a fresh connection: the booking's own limit holds whoever moves it.
      last = await move(token, '2030-01-10', i % 2 ? '09:00' : '10:00', `198.51.100.${i + 1}`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, MOVES_PER_BOOKING.max)).toEqual(Array(MOVES_PER_BOOKING.max).fill(200));
    expect(statuses.slice(MOVES_PER_BOOKING.max)).toEqual(Array(40 - MOVES_PER_BOOKING.max).fill(429));
    expect(last!.json).toMatchObject({ type: 'rate-limited', detail: 'Dieser Termin wurde zu oft verschoben. Bitte versuchen Sie es später erneut oder rufen Sie uns an.' });
    // The booking's first move leaves the 24 hours when they have passed: that is when the next one counts.
    expect(Number(last!.headers.get('retry-after'))).toBe(MOVES_PER_BOOKING.windowSeconds);
    expect(await notices()).toHaveLength(MOVES_PER_BOOKING.max);
    const [row] = await t.db.select().from(bookedSlots);
    expect(row!.appointmentTime).toBe('10:00:00');
    // A day later the patient may move it again.
    vi.setSystemTime(new Date(NOW.getTime() + MOVES_PER_BOOKING.windowSeconds * 1000 + 1000));
    expect((await move(token, '2030-01-10', '11:00', '198.51.100.200')).status).toBe(200);
  });

  it("a move the booking rules refuse (409: a time taken meanwhile) costs the booking nothing of its allowance", async () => {
    const token = await booking(0);
    await booking(5); // takes Tuesday 10:00
    for (let i = 0; i < 8; i++) expect((await move(token, '2030-01-08', '10:00')).status).toBe(409);
    for (let i = 0; i < MOVES_PER_BOOKING.max; i++) expect((await move(token, '2030-01-10', i % 2 ? '09:00' : '10:00')).status).toBe(200);
    expect((await move(token, '2030-01-10', '11:00')).status).toBe(429);
  });

  it('answers in the language of the page', async () => {
    const token = await booking(0);
    for (let i = 0; i < MOVES_PER_BOOKING.max; i++) await move(token, '2030-01-10', i % 2 ? '09:00' : '10:00');
    const refused = await move(token, '2030-01-10', '11:00', '192.0.2.10', 'en');
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe('This appointment has been moved too often. Please try again later or call us.');
  });

  it(`one client moving many bookings: ${MOVES_PER_CLIENT.max} moves an hour, then 429; another client is not affected`, async () => {
    const tokens = [];
    for (let i = 0; i < MOVES_PER_CLIENT.max + 2; i++) tokens.push(await booking(i));
    for (let i = 0; i < MOVES_PER_CLIENT.max; i++) {
      expect((await move(tokens[i]!, '2030-01-11', TIMES[i % TIMES.length]!, '192.0.2.20')).status, `move ${i}`).not.toBe(429);
    }
    const refused = await move(tokens[MOVES_PER_CLIENT.max]!, '2030-01-14', '09:00', '192.0.2.20');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(MOVES_PER_CLIENT.windowSeconds);
    expect((await move(tokens[MOVES_PER_CLIENT.max + 1]!, '2030-01-14', '09:00', '192.0.2.21')).status).toBe(200);
  });

  it.each([
    ['an IPv4 address and its IPv4-mapped IPv6 spelling', (i: number) => (i % 2 ? '198.51.100.250' : '::ffff:198.51.100.250'), '198.51.100.251'],
    ['addresses rotating inside one IPv6 /64', (i: number) => `2001:db8:2:3:${i.toString(16)}::1`, '2001:db8:2:4::1'],
  ])('keys the client canonically: %s count as one client', async (_what, spelling, otherClient) => {
    const tokens = [];
    for (let i = 0; i < MOVES_PER_CLIENT.max + 2; i++) tokens.push(await booking(i));
    for (let i = 0; i < MOVES_PER_CLIENT.max; i++) await move(tokens[i]!, '2030-01-11', TIMES[i % TIMES.length]!, spelling(i));
    expect((await move(tokens[MOVES_PER_CLIENT.max]!, '2030-01-14', '09:00', spelling(99))).status).toBe(429);
    expect((await move(tokens[MOVES_PER_CLIENT.max + 1]!, '2030-01-14', '09:00', otherClient)).status).toBe(200);
  });

  if (kind === 'postgres') {
    it('40 parallel moves of one booking: at most the limit moves, as many notices', async () => {
      const token = await booking(0);
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => move(token, '2030-01-10', TIMES[i % TIMES.length]!, `198.51.100.${i + 1}`)),
      );
      const moved = results.filter((r) => r.status === 200).length;
      expect(moved).toBeGreaterThan(0);
      expect(moved).toBeLessThanOrEqual(MOVES_PER_BOOKING.max);
      expect(results.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(40 - MOVES_PER_BOOKING.max);
      expect(await notices()).toHaveLength(moved);
    });
  }
});
