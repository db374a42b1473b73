import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import handler, { config } from '../../netlify/functions/appointment-types';
import { appointmentTimeSlots, appointmentTypes } from '../../db/schema';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';
import { addBookableType } from '../helpers/fixtures';

describe.each(databaseKinds)('GET /api/appointment-types on %s', (kind) => {
  const t = useTestBed({ database: kind });

  it('is routed at the path of docs/architecture.md (HTTP API)', () => {
    expect(config.path).toBe('/api/appointment-types');
  });

  it('answers an empty list for a database without types', async () => {
    const res = await call(handler, '/api/appointment-types');
    expect(res.status).toBe(200);
    expect(res.json).toEqual([]);
  });

  it('lists every bookable type, ordered by name, in the fields of docs/architecture.md (HTTP API)', async () => {
    const tuesdayMorning = { days: [2], start: '09:00', end: '12:00' };
    await addBookableType(t.db, { name: 'Impfung', nameEn: 'Vaccination', description: 'Impfen', maxAdvanceDays: 21, slotDurationMinutes: 10, maxSlotsPerTime: 3 }, tuesdayMorning);
    await addBookableType(t.db, { name: 'Akutsprechstunde', description: 'Heute', descriptionEn: 'Today', maxAdvanceDays: 0, slotDurationMinutes: 15, priceCents: 2500 }, tuesdayMorning);
    const res = await call(handler, '/api/appointment-types');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json.map((r: { name: string }) => r.name)).toEqual(['Akutsprechstunde', 'Impfung']);
    expect(res.json[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Akutsprechstunde',
      name_en: null,
      description: 'Heute',
      description_en: 'Today',
      max_advance_days: 0,
      slot_duration_minutes: 15,
      max_slots_per_time: 1,
      price_cents: 2500,
    });
    expect(res.json[1]).toMatchObject({ name_en: 'Vaccination', max_slots_per_time: 3, price_cents: null });
  });

  it('leaves out a type paused online and a type without any time window (docs/decisions/020-reception.md)', async () => {
    const [paused, windowless] = await t.db
      .insert(appointmentTypes)
      .values([
        { name: 'Pausiert', description: 'Nur telefonisch', onlineBookable: false },
        { name: 'Ohne Zeitfenster', description: 'Noch nicht eingerichtet' },
      ])
      .returning({ id: appointmentTypes.id });
    await t.db.insert(appointmentTimeSlots).values({ appointmentTypeId: paused!.id, dayOfWeek: 3, startTime: '09:00', endTime: '12:00' });
    const names = (await call(handler, '/api/appointment-types')).json.map((r: { name: string }) => r.name);
    expect(names).toEqual(['Akutsprechstunde', 'Impfung']);
    // Its first window makes the type bookable; resuming online shows the paused one.
    await t.db.insert(appointmentTimeSlots).values({ appointmentTypeId: windowless!.id, dayOfWeek: 3, startTime: '09:00', endTime: '12:00' });
    await t.db.update(appointmentTypes).set({ onlineBookable: true }).where(eq(appointmentTypes.id, paused!.id));
    const after = (await call(handler, '/api/appointment-types')).json.map((r: { name: string }) => r.name);
    expect(after).toEqual(['Akutsprechstunde', 'Impfung', 'Ohne Zeitfenster', 'Pausiert']);
  });

  it('answers 405 with Allow for other methods', async () => {
    const res = await call(handler, '/api/appointment-types', { method: 'POST', body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ type: 'method-not-allowed', status: 405 });
  });
});
