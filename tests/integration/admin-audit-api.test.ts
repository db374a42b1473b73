/**
 * The audit trail (docs/decisions/010-staff-accounts-audit-day-list.md):
 * every admin change of types, windows, blocks, releases, inventory and
 * users is recorded with who, what, which id, a readable label
 * (docs/decisions/020-reception.md) and when, never patient data; GET
 * /api/admin/audit lists it newest first, filterable by user and kind;
 * entries older than 12 months are purged.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, bookedSlots, inventoryItems } from '../../db/schema';
import audit, { config } from '../../netlify/functions/admin-audit';
import types from '../../netlify/functions/admin-appointment-types';
import type_ from '../../netlify/functions/admin-appointment-type';
import windows from '../../netlify/functions/admin-time-slots';
import window_ from '../../netlify/functions/admin-time-slot';
import blocks from '../../netlify/functions/admin-blocked-dates';
import block from '../../netlify/functions/admin-blocked-date';
import release from '../../netlify/functions/admin-booked-slot';
import inventory from '../../netlify/functions/admin-inventory';
import inventoryItem from '../../netlify/functions/admin-inventory-item';
import adminUsers from '../../netlify/functions/admin-users';
import adminUser from '../../netlify/functions/admin-user';
import { audited, auditCutoff, recordAudit } from '../../src/server/audit.server';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const typeBody = {
  name: 'Gesundheitsberatung',
  description: 'Beratung zu Vorsorge.',
  max_advance_days: 14,
  slot_duration_minutes: 20,
  max_slots_per_time: 1,
};
const itemBody = { name: 'Spritzen', supplier: 'Medi', current_stock: 5, minimum_stock: 1 };

describe.each(databaseKinds)('audit trail on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let anna: TestUser;
  let ben: TestUser;
  const asAnna = asAdmin(() => anna);
  const asBen = asAdmin(() => ben);
  const at = (id: string) => ({ params: { id } });
  const list = (query: Record<string, string> = {}) => asAnna(audit, '/api/admin/audit', { query });

  beforeAll(async () => {
    anna = await createAdmin(t.db, { email: 'anna@example.org' });
    ben = await createAdmin(t.db, { email: 'ben@example.org' });
  });

  it('is routed at /api/admin/audit', () => expect(config.path).toBe('/api/admin/audit'));

  it('records every admin change with who, what, which id and when, newest first', async () => {
    const started = Date.now();
    const type = (await asAnna(types, '/api/admin/appointment-types', { method: 'POST', body: typeBody })).json;
    await asAnna(type_, `/api/admin/appointment-types/${type.id}`, { method: 'PUT', ...at(type.id), body: { ...typeBody, name: 'Beratung' } });
    const win = (await asBen(windows, '/api/admin/time-slots', { method: 'POST', body: { appointment_type_id: type.id, day_of_week: 1, start_time: '09:00', end_time: '12:00' } })).json;
    await asBen(window_, `/api/admin/time-slots/${win.id}`, { method: 'PUT', ...at(win.id), body: { appointment_type_id: type.id, day_of_week: 2, start_time: '09:00', end_time: '12:00' } });
    await asBen(window_, `/api/admin/time-slots/${win.id}`, { method: 'DELETE', ...at(win.id) });
    const blk = (await asAnna(blocks, '/api/admin/blocked-dates', { method: 'POST', body: { date: '2030-01-10', reason: 'Urlaub' } })).json;
    await asAnna(block, `/api/admin/blocked-dates/${blk.id}`, { method: 'PUT', ...at(blk.id), body: { date: '2030-01-11' } });
    await asAnna(block, `/api/admin/blocked-dates/${blk.id}`, { method: 'DELETE', ...at(blk.id) });
    const [slot] = await t.db
      .insert(bookedSlots)
      .values({ appointmentTypeId: type.id, appointmentDate: '2030-01-08', appointmentTime: '09:00', seat: 1, cancellationTokenHash: 'a'.repeat(64) })
      .returning();
    expect((await asBen(release, `/api/admin/booked-slots/${slot!.id}`, { method: 'DELETE', ...at(slot!.id) })).status).toBe(200);
    const item = (await asBen(inventory, '/api/admin/inventory', { method: 'POST', body: itemBody })).json;
    await asBen(inventoryItem, `/api/admin/inventory/${item.id}`, { method: 'PUT', ...at(item.id), body: { ...itemBody, current_stock: 9 } });
    await asBen(inventoryItem, `/api/admin/inventory/${item.id}`, { method: 'PATCH', ...at(item.id), body: { is_ordered: true } });
    await asBen(inventoryItem, `/api/admin/inventory/${item.id}`, { method: 'DELETE', ...at(item.id) });
    await asAnna(type_, `/api/admin/appointment-types/${type.id}`, { method: 'DELETE', ...at(type.id) });
    const colleague = (await asAnna(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'carla@example.org', password: 'anfang-passwort-123' } })).json;
    await asAnna(adminUser, `/api/admin/users/${colleague.id}`, { method: 'DELETE', ...at(colleague.id) });

    const res = await list();
    expect(res.status).toBe(200);
    const rows = res.json.map((r: any) => [r.user_email, r.action, r.entity, r.entity_id, r.label]);
    const windowLabel = 'Beratung, Mo 09:00–12:00 Uhr';
    expect(rows).toEqual(
      [
        // Each label names the thing as it was at the time of the change.
        ['anna@example.org', 'create', 'appointment-type', type.id, 'Gesundheitsberatung'],
        ['anna@example.org', 'update', 'appointment-type', type.id, 'Beratung'],
        ['ben@example.org', 'create', 'time-window', win.id, windowLabel],
        ['ben@example.org', 'update', 'time-window', win.id, 'Beratung, Di 09:00–12:00 Uhr'],
        ['ben@example.org', 'delete', 'time-window', win.id, 'Beratung, Di 09:00–12:00 Uhr'],
        ['anna@example.org', 'create', 'blocked-date', blk.id, '10.01.2030, alle Terminarten'],
        ['anna@example.org', 'update', 'blocked-date', blk.id, '11.01.2030, alle Terminarten'],
        ['anna@example.org', 'delete', 'blocked-date', blk.id, '11.01.2030, alle Terminarten'],
        ['ben@example.org', 'cancel', 'booked-slot', slot!.id, `${slot!.reference} (Beratung, 08.01.2030 09:00 Uhr)`],
        ['ben@example.org', 'create', 'inventory-item', item.id, 'Spritzen'],
        ['ben@example.org', 'update', 'inventory-item', item.id, 'Spritzen'],
        ['ben@example.org', 'update', 'inventory-item', item.id, 'Spritzen'],
        ['ben@example.org', 'delete', 'inventory-item', item.id, 'Spritzen'],
        ['anna@example.org', 'delete', 'appointment-type', type.id, 'Beratung'],
        ['anna@example.org', 'create', 'user', colleague.id, 'carla@example.org'],
        ['anna@example.org', 'delete', 'user', colleague.id, 'carla@example.org'],
      ].reverse(),
    );
    const first = res.json[0];
    expect(Object.keys(first).sort()).toEqual(['action', 'at', 'entity', 'entity_id', 'id', 'label', 'user_email', 'user_id']);
    expect(first.user_id).toBe(anna.id);
    expect(Date.parse(first.at)).toBeGreaterThanOrEqual(started - 1000);
    // Labels only: free text (a block's reason, a supplier) and passwords are never kept.
    const stored = JSON.stringify(await t.db.select().from(auditLog));
    for (const typed of ['Urlaub', 'Medi', 'anfang-123']) expect(stored).not.toContain(typed);
  });

  it('cuts a label to the 200 characters its column holds', async () => {
    const long = 'L'.repeat(250);
    await recordAudit(t.db, { user: anna }, { action: 'create', entity: 'inventory-item', entityId: 'x', label: long });
    const [row] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, 'x'));
    expect(row!.label).toBe(`${'L'.repeat(199)}…`);
    await t.db.delete(auditLog).where(eq(auditLog.entityId, 'x'));
  });

  it('does not record refused changes (400, 404, 409)', async () => {
    const before = (await t.db.select().from(auditLog)).length;
    await asAnna(inventory, '/api/admin/inventory', { method: 'POST', body: { name: '' } });
    const missing = '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11';
    expect((await asAnna(inventoryItem, `/api/admin/inventory/${missing}`, { method: 'DELETE', ...at(missing) })).status).toBe(404);
    expect((await asAnna(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'anna@example.org', password: 'x-123456-lang' } })).status).toBe(409);
    expect(await t.db.select().from(auditLog)).toHaveLength(before);
  });

  it('a change whose entry cannot be written is not made either (one transaction)', async () => {
    const [row] = await t.db.insert(inventoryItems).values({ name: 'Tupfer', supplier: 's' }).returning();
    const before = (await t.db.select().from(auditLog)).length;
    await expect(
      audited(t.db, { user: anna }, { action: 'delete', entity: 'inventory-item', entityId: 'x'.repeat(101) }, (tx) =>
        tx.delete(inventoryItems).where(eq(inventoryItems.id, row!.id)),
      ),
    ).rejects.toThrow();
    expect(await t.db.select().from(inventoryItems).where(eq(inventoryItems.id, row!.id))).toHaveLength(1);
    expect(await t.db.select().from(auditLog)).toHaveLength(before);
  });

  it('filters by user and by kind, both or either', async () => {
    const byBen = (await list({ user: ben.id })).json;
    expect(byBen.length).toBeGreaterThan(0);
    expect(byBen.every((r: any) => r.user_id === ben.id)).toBe(true);
    const items = (await list({ kind: 'inventory-item' })).json;
    expect(items.map((r: any) => r.action)).toEqual(['delete', 'update', 'update', 'create']);
    expect((await list({ user: anna.id, kind: 'inventory-item' })).json).toEqual([]);
    expect((await list({ user: ben.id.toUpperCase(), kind: 'time-window' })).json).toHaveLength(3);
    expect((await list({ user: '', kind: '' })).json.length).toBe((await list()).json.length);
  });

  it.each([
    ['an unknown kind', { kind: 'patients' }, 'kind'],
    ['a user that is not an id', { user: 'anna' }, 'user'],
  ])('answers 400 for %s', async (_, query, field) => {
    expect(errorsOf(await list(query))[field]).toEqual(['admin.errors.invalid']);
  });

  it('purges entries older than 12 months, on writing and on listing', async () => {
    const now = new Date();
    const old = new Date(auditCutoff(now).getTime() - 60_000);
    const recent = new Date(auditCutoff(now).getTime() + 24 * 3600_000);
    await t.db.insert(auditLog).values([
      { userId: anna.id, userEmail: anna.email, action: 'update', entity: 'inventory-item', entityId: 'old-1', at: old },
      { userId: anna.id, userEmail: anna.email, action: 'update', entity: 'inventory-item', entityId: 'recent-1', at: recent },
    ]);
    const ids = (await list()).json.map((r: any) => r.entity_id);
    expect(ids).toContain('recent-1');
    expect(ids).not.toContain('old-1');
    expect(await t.db.select().from(auditLog).where(eq(auditLog.entityId, 'old-1'))).toEqual([]);

    // Writing purges too, even when nobody opens the list.
    await t.db.insert(auditLog).values({ userId: anna.id, userEmail: anna.email, action: 'update', entity: 'inventory-item', entityId: 'old-2', at: old });
    await recordAudit(t.db, { user: anna }, { action: 'create', entity: 'inventory-item', entityId: 'new-1' });
    expect(await t.db.select().from(auditLog).where(eq(auditLog.entityId, 'old-2'))).toEqual([]);
    expect(await t.db.select().from(auditLog).where(eq(auditLog.entityId, 'recent-1'))).toHaveLength(1);
  });

  it('12 months are calendar months: the cutoff of 15 Mar 2027 is 15 Mar 2026', () => {
    expect(auditCutoff(new Date('2027-03-15T10:00:00Z')).toISOString()).toBe('2026-03-15T10:00:00.000Z');
  });

  it('keeps the record of a removed colleague, with their email', async () => {
    const dora = await createAdmin(t.db, { email: 'dora@example.org' });
    await asAdmin(() => dora)(inventory, '/api/admin/inventory', { method: 'POST', body: { ...itemBody, name: 'Pflaster' } });
    await asAnna(adminUser, `/api/admin/users/${dora.id}`, { method: 'DELETE', ...at(dora.id) });
    const rows = (await list({ user: dora.id })).json;
    expect(rows).toEqual([expect.objectContaining({ user_email: 'dora@example.org', action: 'create', entity: 'inventory-item' })]);
    vi.restoreAllMocks();
  });
});
