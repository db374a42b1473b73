/**
 * The appointment-contact migration on a database holding reminders of the
 * earlier schema (production before appointment contacts), on PGlite and on
 * a real Postgres: every reminder becomes its booking's contact with its
 * send time, and the statements of the functions still live during the
 * deploy (the earlier reminders code, quoted here as it ran) keep working
 * against the `reminders` view. Runs the committed SQL files in journal
 * order.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../db/migrate';
import { generateKey, parseKeyRing } from '../../src/server/appointment-contact/keys.server';
import { open } from '../../src/server/appointment-contact/seal.server';
import { databaseKinds, useTestBed, type DatabaseKind, type TestBed } from '../setup/test-bed';

async function statementsOf(tag: string): Promise<string[]> {
  const text = await readFile(path.join(migrationsFolder, `${tag}.sql`), 'utf8');
  return text.split('--> statement-breakpoint').map((s) => s.trim()).filter(Boolean);
}

interface Client {
  query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>;
  close(): Promise<void>;
}

async function connect(kind: DatabaseKind, bed: TestBed): Promise<Client> {
  if (kind === 'pglite') {
    const db = new PGlite();
    return { query: (sql, params) => db.query(sql, params), close: () => db.close() };
  }
  // The test bed's scratch database: it ends the client and drops the database.
  const client = bed.scratch.client();
  return { query: (sql, params) => client.query(sql, params as unknown[]), close: async () => {} };
}

const keys = parseKeyRing(generateKey());

/** A reminder sealed as the earlier schema sealed it: { e, f, l, t }, no last name. */
function secondRoundSeal(bookingId: string, email: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  cipher.setAAD(Buffer.from(bookingId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify({ e: email, f: 'Erika', l: 'de', t: 'T'.repeat(43) })), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

describe.each(databaseKinds)('appointment-contact migration over reminders of the earlier schema on %s', (kind) => {
  const bed = useTestBed({ scratchDatabase: kind === 'postgres' });
  let db: Client;
  let tags: string[];
  let contactMigration: number;

  beforeAll(async () => {
    db = await connect(kind, bed);
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    tags = journal.entries.map((e) => e.tag);
    contactMigration = tags.findIndex((tag) => tag.endsWith('appointment-contacts'));
    expect(contactMigration).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await db.close();
  });

  it('turns every reminder into its booking\'s contact, and the old code keeps working through the view', async () => {
    for (const tag of tags.slice(0, contactMigration)) for (const statement of await statementsOf(tag)) await db.query(statement);

    const { rows: [type] } = await db.query(`insert into appointment_types (name, description) values ('Check-up', 'Vorsorge') returning id`);
    const book = async (time: string, n: number) =>
      (
        await db.query(
          `insert into booked_slots (appointment_type_id, appointment_date, appointment_time, seat, cancellation_token_hash) values ($1, '2030-01-09', $2, 1, $3) returning id`,
          [type.id, time, n.toString(16).padStart(64, '0')],
        )
      ).rows[0].id as string;
    const a = await book('09:00', 1);
    const b = await book('09:20', 2);
    const plain = await book('09:40', 3);
    for (const [id, sendAt] of [[a, '2030-01-08T08:00:00Z'], [b, '2030-01-08T08:20:00Z']] as const) {
      await db.query(`insert into reminders (booking_id, send_at, key_id, sealed) values ($1, $2, $3, $4)`, [id, sendAt, keys.current.id, secondRoundSeal(id, `${id}@example.org`)]);
    }

    for (const tag of tags.slice(contactMigration)) for (const statement of await statementsOf(tag)) await db.query(statement);

    // Each reminder is now its booking's contact, with its send time; the booking without one has none.
    const { rows: contacts } = await db.query(`select booking_id, key_id, sealed, reminder, remind_at from appointment_contacts order by remind_at`);
    expect(contacts.map((c) => [c.booking_id, c.reminder, new Date(c.remind_at).toISOString()])).toEqual([
      [a, true, '2030-01-08T08:00:00.000Z'],
      [b, true, '2030-01-08T08:20:00.000Z'],
    ]);
    expect(open({ keyId: contacts[0].key_id, sealed: contacts[0].sealed }, a, keys)).toEqual({
      email: `${a}@example.org`,
      firstName: 'Erika',
      lastName: '',
      language: 'de',
      token: 'T'.repeat(43),
      birthDate: '',
      phone: '',
    });

    // The earlier schema's statements (src/server/reminders/*.ts before appointment contacts), as drizzle sent them:
    // insertReminder,
    await db.query(
      `insert into "reminders" ("id", "booking_id", "send_at", "key_id", "sealed", "created_at") values (default, $1, $2, $3, $4, default)`,
      [plain, '2030-01-08T08:40:00Z', keys.current.id, secondRoundSeal(plain, 'p@example.org')],
    );
    // moveReminder,
    const moved = await db.query(`update "reminders" set "send_at" = $1 where "reminders"."booking_id" = $2 returning "id"`, ['2030-01-08T09:00:00Z', b]);
    expect(moved.rows).toEqual([{ id: b }]);
    // the job's claim (FOR UPDATE OF the view, SKIP LOCKED) and its delete of what it sent.
    await db.query('begin');
    const { rows: due } = await db.query(
      `select "reminders"."id", "reminders"."booking_id", "booked_slots"."appointment_date" from "reminders"
       inner join "booked_slots" on "booked_slots"."id" = "reminders"."booking_id"
       where "reminders"."send_at" <= $1 order by "reminders"."send_at" asc limit $2 for update of "reminders" skip locked`,
      ['2030-01-08T08:45:00Z', 100],
    );
    expect(due.map((r) => r.id)).toEqual([a, plain]);
    const deleted = await db.query(`delete from "reminders" where "reminders"."id" in ($1, $2) returning "id"`, [a, plain]);
    expect(deleted.rows).toHaveLength(2);
    await db.query('commit');

    // Sent reminders leave their contacts (only the send time goes); the moved one is due later; nothing else changed.
    const { rows: after } = await db.query(`select booking_id, reminder, remind_at from appointment_contacts order by booking_id`);
    expect(after.map((c) => [c.booking_id, c.reminder, c.remind_at && new Date(c.remind_at).toISOString()]).sort()).toEqual(
      [
        [a, true, null],
        [b, true, '2030-01-08T09:00:00.000Z'],
        [plain, true, null],
      ].sort(),
    );
    expect((await db.query(`select id from reminders`)).rows).toEqual([{ id: b }]);
    // A cancelled booking takes its contact with it.
    await db.query(`delete from booked_slots where id = $1`, [b]);
    expect((await db.query(`select booking_id from appointment_contacts where booking_id = $1`, [b])).rows).toHaveLength(0);
  });
});
