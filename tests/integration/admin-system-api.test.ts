/**
 * GET /api/admin/system, "Systemstatus" (docs/decisions/045-operations.md):
 * admins only (401, 403), never cached, every look audited, and nothing of
 * a patient in the answer though patients have booked, waited and asked.
 * The own alerts switch (/api/admin/system/alerts) is the admin's own and
 * audited too.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLog, emailOutbox, users } from '../../db/schema';
import bookings from '../../netlify/functions/bookings';
import system, { config } from '../../netlify/functions/admin-system';
import systemAlerts from '../../netlify/functions/admin-system-alerts';
import { bundledMigration } from '../../db/migration-version';
import { writeHeartbeat } from '../../src/server/operations/heartbeat.server';
import { createAdmin, createNonAdmin, type TestUser } from '../helpers/auth';
import { addBookableType } from '../helpers/fixtures';
import { call, settled } from '../helpers/http';
import { bookingRequest } from '../helpers/patient';
import { databaseKinds, useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const MARKERS = { first_name: 'Quirinella', last_name: 'Zwackelmann', email: 'quirinella.zwackelmann@example.org', phone: '+49 211 9988776', birth_date: '1971-02-03' };

describe.each(databaseKinds)('GET /api/admin/system on %s', (kind) => {
  const t = useTestBed({ database: kind, now: NOW, dataDir: 'system-', env: { DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex'), SITE_URL: 'http://localhost:4321' } });
  let admin: TestUser;
  let colleague: TestUser;

  beforeAll(async () => {
    admin = await createAdmin(t.db);
    colleague = await createNonAdmin(t.db);
    const type = await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1 });
    const booked = await call(bookings, '/api/bookings', { method: 'POST', body: bookingRequest(type.id, '2030-01-08', '09:00', { ...MARKERS, reminder: true }) });
    expect(booked.status).toBe(201);
    await settled();
    // One message the mail service keeps refusing.
    await t.db.update(emailOutbox).set({ status: 'pending', attempts: 2, lastError: 'PostmarkError', nextAttemptAt: new Date(NOW.getTime() + 5 * 60_000) }).where(eq(emailOutbox.audience, 'practice'));
    await writeHeartbeat(t.db, { ranAt: new Date(NOW.getTime() - 60_000), outcome: 'ok', failedSteps: [], durationMs: 321 });
  });

  const get = (cookie?: string) => call(system, '/api/admin/system', { headers: cookie ? { cookie } : {} });

  it('is routed at /api/admin/system; 401 without a session, 403 for a non-admin', async () => {
    expect(config.path).toBe('/api/admin/system');
    expect((await get()).status).toBe(401);
    expect((await get(colleague.cookie)).status).toBe(403);
  });

  it('answers counts and times, never cached, and records the look in the audit trail', async () => {
    const res = await get(admin.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.json).toMatchObject({
      job: { last_run_at: new Date(NOW.getTime() - 60_000).toISOString(), outcome: 'ok', failed_steps: [], duration_ms: 321 },
      outbox: {
        email: { pending: 0, retrying: 1, failed_24h: 0, last_error: 'PostmarkError' },
        sms: { pending: 0, retrying: 0, failed_24h: 0, oldest_pending_at: null, last_error: null },
        max_age_minutes: 15,
      },
      practice_mail: { bounced: false },
      sms: { sent_this_month: 0, limit: 300, configured: true },
      held: { contacts: 1, requests: 0, waitlist: 0 },
      // The contact goes at the end of the appointment's Berlin day.
      next_purge_at: new Date('2030-01-09T00:00:00+01:00').toISOString(),
      migration: { applied: bundledMigration.tag, bundled: bundledMigration.tag, current: true },
      node: process.version,
    });
    expect(typeof res.json.commit).toBe('string');
    expect(res.json.db_ms).toBeGreaterThanOrEqual(0);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entity, 'system'));
    expect(audit.map((a) => [a.userId, a.action, a.label])).toContainEqual([admin.id, 'view', 'Systemstatus']);
  });

  it('holds no patient value: not a name, address, phone, birth date or reference', async () => {
    const res = await get(admin.cookie);
    for (const value of Object.values(MARKERS)) expect(res.text).not.toContain(value);
    expect(res.text).not.toMatch(/@/);
  });

  it('the own alerts switch: off by default, saved for this account only, audited; admins only', async () => {
    const path = '/api/admin/system/alerts';
    expect((await call(systemAlerts, path, { headers: { cookie: colleague.cookie } })).status).toBe(403);
    expect((await call(systemAlerts, path, { headers: { cookie: admin.cookie } })).json).toEqual({ operations_alerts: false });
    const put = await call(systemAlerts, path, { method: 'PUT', headers: { cookie: admin.cookie, origin: 'http://localhost:4321' }, body: { operations_alerts: true } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ operations_alerts: true });
    const [row] = await t.db.select({ on: users.operationsAlerts }).from(users).where(eq(users.id, admin.id));
    expect(row!.on).toBe(true);
    const bad = await call(systemAlerts, path, { method: 'PUT', headers: { cookie: admin.cookie, origin: 'http://localhost:4321' }, body: { operations_alerts: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors).toHaveProperty('operations_alerts');
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.entity, 'system'));
    expect(audit.map((a) => [a.action, a.label])).toContainEqual(['update', 'Störungsmeldungen per E-Mail an']);
  });
});
