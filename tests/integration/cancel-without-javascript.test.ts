/**
 * The link page's cancel form without JavaScript
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md):
 * POST /termin/absagen?token=… (the form has no action, so it posts to the
 * page's own address) cancels as POST /api/bookings/cancel does, behind the
 * same Origin rule, and answers the link page saying how it went, with the
 * API's status codes: cancelled (the practice told, the time free),
 * already cancelled, cancelled by the practice, begun, unknown or cut-short
 * links, the box not ticked, a post from elsewhere.
 */
import { rm } from 'node:fs/promises';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import bookings from '../../netlify/functions/bookings';
import cancelPage from '../../netlify/functions/booking-cancel-page';
import adminCancel from '../../netlify/functions/admin-booked-slot-cancel';
import { bookedSlots, cancelledBookings, rateLimits } from '../../db/schema';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { builtCancelPage } from '../helpers/cancel-page';
import { readOutbox } from '../helpers/eml';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest } from '../helpers/patient';
import { useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const SITE = 'https://praxis.example';
const BROWSER = { origin: SITE, 'content-type': 'application/x-www-form-urlencoded' };

describe('cancelling from the link page without JavaScript', () => {
  const t = useTestBed({ database: 'pglite', now: NOW, dataDir: 'cancel-no-js-', env: { SITE_URL: SITE, PRACTICE_EMAIL: 'team@praxis.example' } });
  let typeId: string;
  let admin: TestUser;
  let serial = 0;

  beforeAll(async () => {
    typeId = (await addBookableType(t.db, { name: 'Check-up', nameEn: 'Health check', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 })).id;
    admin = await createAdmin(t.db);
  });

  beforeEach(async () => {
    vi.setSystemTime(NOW);
    await settled();
    await t.db.delete(bookedSlots);
    await t.db.delete(cancelledBookings);
    await t.db.delete(rateLimits);
    await rm(t.outbox, { recursive: true, force: true });
    // The site's link page, as the function fetches it.
    vi.stubGlobal('fetch', async (url: URL | string) =>
      new Response(builtCancelPage(String(url).includes('/en/') ? 'en' : 'de'), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A booking of the link's patient; answers its token (from the confirmation email) and its row. */
  async function booked(time = '09:00') {
    const email = `link-${++serial}@example.org`;
    const res = await call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(typeId, '2030-01-08', time, { email }) });
    expect(res.status).toBe(201);
    await settled();
    const mail = (await readOutbox(t.outbox)).find((m) => m.headers.to === email)!;
    return { token: /token=([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!, reference: res.json.booking.reference as string };
  }

  const post = (query: Record<string, string>, form: Record<string, string> = { confirm: 'on' }, headers: Record<string, string> = BROWSER, path = '/termin/absagen') =>
    call(cancelPage, path, { method: 'POST', query, body: new URLSearchParams(form).toString(), headers });

  it('cancels: the page says so with the appointment; the time is free, the practice told; a second post says it was already cancelled', async () => {
    const { token, reference } = await booked();
    const res = await post({ token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.text).toContain('<title>Termin abgesagt – Hausarztpraxis Düsseldorf</title>');
    for (const text of [reference, 'Check-up', 'Dienstag, 8. Januar 2030', '09:00 Uhr', 'Die Zeit ist wieder frei.']) expect(res.text).toContain(text);
    // Nothing of the token in the page.
    expect(res.text).not.toContain(token);
    expect(await t.db.select().from(bookedSlots)).toEqual([]);
    await settled();
    expect((await readOutbox(t.outbox)).some((m) => m.headers.to === 'team@praxis.example' && m.subject.startsWith('Termin abgesagt:'))).toBe(true);

    const again = await post({ token });
    expect(again.status).toBe(410);
    expect(again.text).toContain('Termin bereits abgesagt');
    expect(again.text).toContain(reference);
  });

  it('answers in English on the English page', async () => {
    const { token } = await booked();
    const res = await post({ token }, { confirm: 'on' }, BROWSER, '/en/termin/absagen');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Appointment cancelled');
    expect(res.text).toContain('Health check');
  });

  it('without the box ticked: 400, the form again with the error linked to the box, nothing cancelled', async () => {
    const { token } = await booked();
    const res = await post({ token }, {});
    expect(res.status).toBe(400);
    expect(res.text).toContain('href="#cancel-confirm"');
    expect(res.text).toMatch(/id="cancel-confirm"[^>]*aria-invalid="true"/);
    expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
  });

  it('from another site: 403, the page says it was not accepted, nothing cancelled', async () => {
    const { token } = await booked();
    const res = await post({ token }, { confirm: 'on' }, { ...BROWSER, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('nicht von unserer Website');
    expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
    // A browser's post without Origin but marked cross-site is refused too.
    expect((await post({ token }, { confirm: 'on' }, { 'content-type': BROWSER['content-type'], 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
  });

  it('a link cut short or unknown: says so, with the phone', async () => {
    const short = await post({ token: 'abc' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('Link unvollständig');
    const none = await post({});
    expect(none.status).toBe(400);
    const unknown = await post({ token: 'x'.repeat(43) });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('Link nicht mehr gültig');
    expect(unknown.text).toContain('href="tel:+49');
  });

  it('once the appointment has begun: 409, too late online', async () => {
    const { token } = await booked('09:00');
    vi.setSystemTime(new Date('2030-01-08T09:05:00+01:00'));
    const res = await post({ token });
    expect(res.status).toBe(409);
    expect(res.text).toContain('Online nicht mehr möglich');
    expect(await t.db.select().from(bookedSlots)).toHaveLength(1);
  });

  it('cancelled by the practice meanwhile: 410, what it was and that the practice cancelled it', async () => {
    const { token, reference } = await booked();
    const [row] = await t.db.select().from(bookedSlots);
    const api = asAdmin(() => admin);
    expect((await api(adminCancel, `/api/admin/booked-slots/${row!.id}/cancel`, { method: 'POST', params: { id: row!.id }, body: {} })).status).toBe(200);
    const res = await post({ token });
    expect(res.status).toBe(410);
    expect(res.text).toContain('Termin von der Praxis abgesagt');
    expect(res.text).toContain(reference);
  });

  it('without the site’s page: a plain page with the same outcome', async () => {
    vi.stubGlobal('fetch', async () => new Response('down', { status: 503 }));
    const { token } = await booked();
    const res = await post({ token });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Termin abgesagt');
    expect(await t.db.select().from(bookedSlots)).toEqual([]);
  });
});
