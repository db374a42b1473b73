/**
 * Admin text fields over HTTP (docs/decisions/015-admin-text-rules.md): a
 * type name, a block reason or an inventory name holding CR, "\nBcc:",
 * U+2028, RLO, another format character or a noncharacter
 * (docs/decisions/028-hidden-characters-addresses-invitations-origin.md) or
 * an RFC 2047 encoded word is refused with 400 naming the field, and
 * nothing is stored (such a type name used to break every booking's
 * emails). The rule for each field: tests/unit/admin-text-fields.test.ts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appointmentTypes, blockedDates, inventoryItems } from '../../db/schema';
import types from '../../netlify/functions/admin-appointment-types';
import blocks from '../../netlify/functions/admin-blocked-dates';
import inventory from '../../netlify/functions/admin-inventory';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const BAD = [
  'Vorsorge\rx',
  'Vorsorge\nBcc: x@example.org',
  'Vorsorge\u2028Bcc: x@example.org',
  'Vorsorge\u202etxt',
  '=?utf-8?B?QmNjOiB4QGV4YW1wbGUub3Jn?=',
  // format characters and noncharacters (docs/decisions/028-hidden-characters-addresses-invitations-origin.md)
  'Vorsorge\u200e',
  '\u200fVorsorge',
  '\ufeffVorsorge',
  'Vor\ufffbsorge',
  'Vor\u{10fffe}sorge',
];
const REFUSED = ['admin.errors.singleLine', 'admin.errors.invalidCharacters'];

describe.each(databaseKinds)('admin text fields over HTTP on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let admin: TestUser;
  const api = asAdmin(() => admin);

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });

  const type = { name: 'Vorsorge', description: 'Gesundheits-Check', max_advance_days: 14, slot_duration_minutes: 20, max_slots_per_time: 1 };

  it.each(BAD)('refuses %j in a type name, a block reason and an inventory name, storing nothing', async (bad) => {
    const cases = [
      [types, '/api/admin/appointment-types', { ...type, name: bad }, 'name'],
      [types, '/api/admin/appointment-types', { ...type, name_en: bad }, 'name_en'],
      [blocks, '/api/admin/blocked-dates', { date: '2030-01-07', reason: bad }, 'reason'],
      [inventory, '/api/admin/inventory', { name: bad, supplier: 'X', current_stock: 1, minimum_stock: 1 }, 'name'],
      [inventory, '/api/admin/inventory', { name: 'Handschuhe', supplier: bad, current_stock: 1, minimum_stock: 1 }, 'supplier'],
    ] as const;
    for (const [handler, path, body, field] of cases) {
      const [key, ...more] = errorsOf(await api(handler, path, { method: 'POST', body }))[field] ?? [];
      expect(more).toEqual([]);
      expect(REFUSED).toContain(key);
    }
    expect(await t.db.select().from(appointmentTypes)).toEqual([]);
    expect(await t.db.select().from(blockedDates)).toEqual([]);
    expect(await t.db.select().from(inventoryItems)).toEqual([]);
  });

  it('keeps line breaks in a description and stores names NFC-normalised', async () => {
    const res = await api(types, '/api/admin/appointment-types', {
      method: 'POST',
      body: { ...type, name: 'Mu\u0308ttersprechstunde', description: 'Zeile 1\nZeile 2' },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: 'M\u00fcttersprechstunde', description: 'Zeile 1\nZeile 2' });
  });
});
