import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appointmentTimeSlots, appointmentTypes, bookedSlots, inventoryItems, userRoles, users } from '../../db/schema';
import { seedDemoData } from '../../scripts/demo-data';
import { openDatabase } from '../../db/client';
import { databaseSettingsFrom } from '../../db/settings';
import { createPostgresDatabase, databaseKinds, useTestBed } from '../setup/test-bed';

const HASH = 'a'.repeat(64);

async function rejects(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const e = error as { cause?: { constraint?: string; code?: string }; constraint?: string; code?: string };
    return String(e.cause?.constraint ?? e.constraint ?? e.cause?.code ?? e.code ?? 'error');
  }
  throw new Error('expected the database to reject the write');
}

describe.each(databaseKinds)('database on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let typeId: string;

  beforeAll(async () => {
    const [row] = await t.db
      .insert(appointmentTypes)
      .values({ name: 'Check-up', description: 'Vorsorge' })
      .returning();
    typeId = row!.id;
  });

  it('applies every migration: all tables exist', async () => {
    const result = await t.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = (result as unknown as { rows: Array<{ table_name: string }> }).rows.map((r) => r.table_name);
    expect(names).toEqual([
      'appointment_contacts',
      'appointment_time_slots',
      'appointment_types',
      'audit_log',
      'auth_challenges',
      'blocked_dates',
      'booked_slots',
      'cancelled_bookings',
      'contact_attempts',
      'email_outbox',
      'inventory_items',
      'job_heartbeat',
      'login_attempts',
      'operations_alerts',
      'password_reset_attempts',
      'password_tokens',
      'patient_requests',
      'practice_settings',
      'rate_limits',
      'reminders', // a view over appointment_contacts for the functions of the release before (docs/decisions/021)
      'sessions',
      'short_links',
      'sms_usage',
      'staff_passkeys',
      'staff_recovery_codes',
      'staff_second_factors',
      'user_roles',
      'users',
      'waitlist_entries',
      'waitlist_freed_times',
      'waitlist_offers',
    ]);
  });

  it('gives types their defaults (14 days, 20 minutes, capacity 1) and no price', async () => {
    const [row] = await t.db.select().from(appointmentTypes);
    expect(row).toMatchObject({ maxAdvanceDays: 14, slotDurationMinutes: 20, maxSlotsPerTime: 1, priceCents: null });
  });

  it.each([
    ['advance days above 365', { maxAdvanceDays: 366 }, 'appointment_types_max_advance_days_range'],
    ['negative advance days', { maxAdvanceDays: -1 }, 'appointment_types_max_advance_days_range'],
    ['duration not a multiple of 5', { slotDurationMinutes: 7 }, 'appointment_types_slot_duration_range'],
    ['duration above 180', { slotDurationMinutes: 185 }, 'appointment_types_slot_duration_range'],
    ['capacity 0', { maxSlotsPerTime: 0 }, 'appointment_types_max_slots_range'],
    ['capacity 11', { maxSlotsPerTime: 11 }, 'appointment_types_max_slots_range'],
    ['negative price', { priceCents: -1 }, 'appointment_types_price_non_negative'],
    ['blank name', { name: '   ' }, 'appointment_types_name_not_blank'],
  ])('rejects a type with %s', async (_label, patch, constraint) => {
    const write = t.db.insert(appointmentTypes).values({ name: 'X', description: 'Y', ...patch });
    expect(await rejects(write)).toBe(constraint);
  });

  it.each([
    ['start after end', { startTime: '13:00', endTime: '09:00' }, 'appointment_time_slots_start_before_end'],
    ['start equal to end', { startTime: '09:00', endTime: '09:00' }, 'appointment_time_slots_start_before_end'],
    ['weekday 7', { dayOfWeek: 7 }, 'appointment_time_slots_day_of_week_range'],
  ])('rejects a time window with %s', async (_label, patch, constraint) => {
    const write = t.db
      .insert(appointmentTimeSlots)
      .values({ appointmentTypeId: typeId, dayOfWeek: 1, startTime: '09:00', endTime: '10:00', ...patch });
    expect(await rejects(write)).toBe(constraint);
  });

  it('rejects a window of an unknown type (foreign key)', async () => {
    const write = t.db.insert(appointmentTimeSlots).values({
      appointmentTypeId: '00000000-0000-4000-8000-000000000000',
      dayOfWeek: 1,
      startTime: '09:00',
      endTime: '10:00',
    });
    expect(await rejects(write)).toMatch(/^appointment_time_slots_appointment_type_id/);
  });

  it('keeps only a token hash in booked_slots: a raw token is refused', async () => {
    const write = t.db.insert(bookedSlots).values({
      appointmentTypeId: typeId,
      appointmentDate: '2026-12-01',
      appointmentTime: '09:00',
      seat: 1,
      cancellationTokenHash: 'plain-token-not-a-hash',
    });
    expect(await rejects(write)).toBe('booked_slots_token_hash_format');
    const columns = await t.db.execute(
      sql`select column_name from information_schema.columns where table_name = 'booked_slots' order by ordinal_position`,
    );
    expect((columns as unknown as { rows: Array<{ column_name: string }> }).rows.map((r) => r.column_name)).toEqual([
      'id',
      'appointment_type_id',
      'appointment_date',
      'appointment_time',
      'cancellation_token_hash',
      'created_at',
      'seat',
      'source',
      'reference',
      'practice_notified',
      'patient_notified',
      'sequence',
      'attendance',
      'informed_at',
      'informed_by',
    ]);
  });

  it('rejects negative stock and unknown roles', async () => {
    expect(await rejects(t.db.insert(inventoryItems).values({ name: 'A', supplier: 'B', currentStock: -1 }))).toBe(
      'inventory_items_current_stock_non_negative',
    );
    const [user] = await t.db.insert(users).values({ email: 'staff@example.org', passwordHash: 'x' }).returning();
    expect(await rejects(t.db.insert(userRoles).values({ userId: user!.id, role: 'superuser' }))).toBe(
      'user_roles_role_known',
    );
    expect(await rejects(t.db.insert(users).values({ email: 'Staff@Example.org', passwordHash: 'x' }))).toBe(
      'users_email_normalised',
    );
  });

  it('deleting a type deletes its windows and bookings (cascade)', async () => {
    const [type] = await t.db.insert(appointmentTypes).values({ name: 'Temp', description: 'T' }).returning();
    await t.db
      .insert(appointmentTimeSlots)
      .values({ appointmentTypeId: type!.id, dayOfWeek: 2, startTime: '08:00', endTime: '09:00' });
    await t.db.insert(bookedSlots).values({
      appointmentTypeId: type!.id,
      appointmentDate: '2026-01-01',
      appointmentTime: '08:00',
      seat: 1,
      cancellationTokenHash: HASH,
    });
    await t.db.delete(appointmentTypes).where(sql`${appointmentTypes.id} = ${type!.id}`);
    const left = await t.db.execute(
      sql`select (select count(*) from appointment_time_slots where appointment_type_id = ${type!.id}) + (select count(*) from booked_slots where appointment_type_id = ${type!.id}) as n`,
    );
    expect(Number((left as unknown as { rows: Array<{ n: string }> }).rows[0]!.n)).toBe(0);
  });

  it('the seed never touches a database that already has data', async () => {
    expect(await seedDemoData(t.db)).toBe(false);
    const types = await t.db.select().from(appointmentTypes);
    expect(types.map((r) => r.name)).toEqual(['Check-up']);
  });
});

describe('seed on a fresh database', () => {
  const t = useTestBed({ database: 'pglite' });

  it('gives a fresh site consultation types with Mon–Fri 08:20–13:40 windows and inventory', async () => {
    expect(await seedDemoData(t.db)).toBe(true);
    const types = await t.db.select().from(appointmentTypes);
    expect(types.map((r) => r.name)).toEqual(
      expect.arrayContaining(['Akutsprechstunde', 'Check-up', 'Impfung']),
    );
    expect(types.find((r) => r.name === 'Akutsprechstunde')?.maxAdvanceDays).toBe(0);
    const windows = await t.db.select().from(appointmentTimeSlots);
    expect(windows).toHaveLength(types.length * 5);
    for (const w of windows) {
      expect([1, 2, 3, 4, 5]).toContain(w.dayOfWeek);
      expect([w.startTime, w.endTime]).toEqual(['08:20:00', '13:40:00']);
    }
    expect((await t.db.select().from(inventoryItems)).length).toBeGreaterThan(3);
    expect(await seedDemoData(t.db)).toBe(false);
    expect(await t.db.select().from(appointmentTypes)).toHaveLength(types.length);
  });

  it('seeds exactly once when several processes start at the same time (real Postgres)', async () => {
    const { url, drop } = await createPostgresDatabase();
    const handles = await Promise.all(Array.from({ length: 5 }, () => openDatabase({ ...databaseSettingsFrom(process.env), url })));
    try {
      const results = await Promise.all(handles.map((h) => seedDemoData(h.db)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const types = await handles[0]!.db.select().from(appointmentTypes);
      expect(new Set(types.map((r) => r.name)).size).toBe(types.length);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await drop();
    }
  });
});
