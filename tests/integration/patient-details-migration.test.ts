/**
 * Migration 0011 (docs/decisions/025) on a real Postgres holding the
 * release before's data: an online booking with its contact as sealed before
 * ({e, f, n, l, t}) and a phone booking without one. After the migration
 * the contact is carried over as it was (details 1), still opens with
 * empty birth date and phone, and the staff list shows its name; the
 * release before's contact insert (still live during the deploy) writes
 * details 1; an online booking still needs its link, a phone booking may
 * now have one.
 */
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateKey, parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { open } from '../../src/server/appointment-contact/seal.server';
import { openAll } from '../../src/server/admin/patient-details.server';
import { useTestBed } from '../setup/test-bed';

const keys = parseKeyRing(generateKey());

/** A contact sealed as the release before sealed it: { e, f, n, l, t }. */
function thirdRoundSeal(bookingId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(bookingId, 'utf8'));
  const plain = JSON.stringify({ e: 'erika@example.org', f: 'Erika', n: 'Müller', l: 'de', t: 'T'.repeat(43) });
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

describe('migration 0011 over contacts of the release before (postgres)', () => {
  const scratch = useTestBed({ scratchDatabase: true }).scratch;

  it('carries the contacts over unchanged (details 1), keeps the live functions\' statements working, relaxes the link rule for phone bookings only', async () => {
    const db = scratch.client();
    const { before, rest } = await scratch.migrationsAround('_patient-details');
    await before();
    const [{ id: typeId }] = (
      await db.query(`insert into appointment_types (name, description) values ('Impfung', 'i') returning id`)
    ).rows;
    const online = randomUUID();
    const phone = randomUUID();
    await db.query(
      `insert into booked_slots (id, appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash, source)
       values ($1, $3, '2030-01-08', '09:00', 1, $4, 'online'), ($2, $3, '2030-01-08', '09:20', 1, null, 'phone')`,
      [online, phone, typeId, 'a'.repeat(64)],
    );
    const sealed = thirdRoundSeal(online);
    // The release before's contactCte, as it ran.
    await db.query(`insert into appointment_contacts (booking_id, key_id, sealed, reminder, remind_at) values ($1, $2, $3, false, null)`, [online, keys.current.id, sealed]);

    await rest();

    const { rows } = await db.query(`select booking_id, key_id, sealed, details from appointment_contacts`);
    expect(rows).toEqual([{ booking_id: online, key_id: keys.current.id, sealed, details: 1 }]);
    expect(open({ keyId: rows[0].key_id, sealed: rows[0].sealed }, online, keys)).toEqual({
      email: 'erika@example.org',
      firstName: 'Erika',
      lastName: 'Müller',
      language: 'de',
      token: 'T'.repeat(43),
      birthDate: '',
      phone: '',
    });
    // Staff see the carried-over contact's name; birth date and phone were never kept.
    const [shown] = openAll([{ id: online, sealed: { keyId: rows[0].key_id, sealed: rows[0].sealed } }], keys);
    expect(shown).toMatchObject({ patient_state: 'present', patient: { first_name: 'Erika', last_name: 'Müller', birth_date: null, phone: null, email: 'erika@example.org' } });

    // A function of the release before, still live during the deploy, writes its contact the old way: it reads details 1.
    const during = randomUUID();
    await db.query(
      `insert into booked_slots (id, appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash, source) values ($1, $2, '2030-01-08', '09:40', 1, $3, 'online')`,
      [during, typeId, 'b'.repeat(64)],
    );
    await db.query(`insert into appointment_contacts (booking_id, key_id, sealed, reminder, remind_at) values ($1, $2, $3, false, null)`, [during, keys.current.id, thirdRoundSeal(during)]);
    expect((await db.query(`select details from appointment_contacts where booking_id = $1`, [during])).rows).toEqual([{ details: 1 }]);
    await expect(db.query(`update appointment_contacts set details = 3 where booking_id = $1`, [during])).rejects.toMatchObject({
      constraint: 'appointment_contacts_details_known',
    });

    // A phone booking may now carry a link (a caller with an email); an online booking still must.
    await db.query(`update booked_slots set cancellation_token_hash = $2 where id = $1`, [phone, 'c'.repeat(64)]);
    await expect(db.query(`update booked_slots set cancellation_token_hash = null where id = $1`, [online])).rejects.toMatchObject({
      constraint: 'booked_slots_token_if_online',
    });
  });
});
