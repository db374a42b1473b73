/**
 * The local data key under load (docs/decisions/042-install-on-node-20-and-a-suite-under-load.md):
 * without DATA_ENCRYPTION_KEY, $DATA_DIR/data-encryption.key is created by
 * the first request that needs it and only read after that. Many requests
 * at once (bookings that seal a contact, staff views that open them) leave
 * exactly that one file and never draft another beside it, which an outside
 * look at the data folder (the privacy test's) would catch mid-way.
 */
import { watch } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import bookedCollection from '../../netlify/functions/admin-booked-slots';
import bookings from '../../netlify/functions/bookings';
import { KEY_FILE_NAME, parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { addBookableType } from '../helpers/fixtures';
import { call } from '../helpers/http';
import { useTestBed } from '../setup/test-bed';

// Monday 7 January 2030, 07:00 in Berlin.
const NOW = new Date('2030-01-07T07:00:00+01:00');
const TIMES = ['08:20', '08:40', '09:00', '09:20', '09:40', '10:00', '10:20', '10:40', '11:00', '11:20', '11:40', '12:00'];

describe('the local data key file under many requests', () => {
  const t = useTestBed({
    database: 'pglite',
    now: NOW,
    dataDir: 'data-key-',
    env: { APP_ENV: 'development', SITE_URL: 'https://praxis.example', PRACTICE_EMAIL: 'team@praxis.example', DATA_ENCRYPTION_KEY: '' },
  });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const keyFiles = async () => (await readdir(t.dataDir)).filter((name) => name.startsWith(KEY_FILE_NAME)).sort();

  it('is created once, then read: one file, no drafts, one key for every request', async () => {
    admin = await createAdmin(t.db);
    const type = await addBookableType(t.db, { name: 'Check-up', description: 'Vorsorge', maxAdvanceDays: 30 });
    expect(await keyFiles()).toEqual([]);

    const seen: string[] = [];
    const watcher = watch(t.dataDir, (_event, name) => seen.push(String(name)));
    try {
      const booked = await Promise.all(
        TIMES.map((time, i) =>
          call(bookings, '/api/bookings', {
            method: 'POST',
            ip: `192.0.2.${i + 1}`,
            body: {
              first_name: 'Erika',
              last_name: `Muster${i}`,
              birth_date: '1980-02-03',
              phone: `0211 5550${100 + i}`,
              email: `erika${i}@example.org`,
              consent: true,
              language: 'de',
              appointment_type_id: type.id,
              appointment_date: '2030-01-09',
              appointment_time: time,
            },
          }),
        ),
      );
      expect(booked.map((res) => res.status)).toEqual(TIMES.map(() => 201));
      const views = await Promise.all(Array.from({ length: 12 }, () => api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-09', to: '2030-01-09', view: 'day-list' } })));
      expect(views.map((res) => res.status)).toEqual(views.map(() => 200));
      // Every staff view opened every contact: all were sealed with the one key.
      for (const view of views) expect(JSON.stringify(view.json)).toContain('Muster11');
      // Anything written beside the key reaches the watcher before this marker does.
      await writeFile(path.join(t.dataDir, 'marker'), '');
      await vi.waitFor(() => expect(seen).toContain('marker'), { timeout: 10_000, interval: 20 });
    } finally {
      watcher.close();
    }

    const keyEvents = seen.filter((name) => name.startsWith(KEY_FILE_NAME));
    // The file itself appears (a draft linked into place, then the draft removed), once: nothing else.
    expect(keyEvents.filter((name) => name !== KEY_FILE_NAME && !name.endsWith('.tmp'))).toEqual([]);
    expect(new Set(keyEvents.filter((name) => name.endsWith('.tmp'))).size, 'drafts of the key file').toBeLessThanOrEqual(1);
    expect(await keyFiles()).toEqual([KEY_FILE_NAME]);
    expect(parseKeyRing(await readFile(path.join(t.dataDir, KEY_FILE_NAME), 'utf8')).current.id).toMatch(/^[0-9a-f]{16}$/);

    // Later requests only read it: not one more draft.
    seen.length = 0;
    const watcherAfter = watch(t.dataDir, (_event, name) => seen.push(String(name)));
    try {
      const again = await Promise.all(Array.from({ length: 12 }, () => api(bookedCollection, '/api/admin/booked-slots', { query: { from: '2030-01-09', to: '2030-01-09', view: 'day-list' } })));
      expect(again.map((res) => res.status)).toEqual(again.map(() => 200));
      await writeFile(path.join(t.dataDir, 'marker-2'), '');
      await vi.waitFor(() => expect(seen).toContain('marker-2'), { timeout: 10_000, interval: 20 });
    } finally {
      watcherAfter.close();
    }
    expect(seen.filter((name) => name.startsWith(KEY_FILE_NAME))).toEqual([]);
    expect(await keyFiles()).toEqual([KEY_FILE_NAME]);
  });
});
