/**
 * The reception migration (issue 21) on a database of the release before:
 * existing types stay online-bookable, existing audit entries keep no
 * label, and a colleague whose invitation was never used (and who never
 * used any link) is pending; one who accepted, or who set a password
 * through "Passwort vergessen", is active. Runs the committed SQL files in
 * journal order on the real Postgres.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { migrationsFolder } from '../../db/migrate';

async function statementsOf(tag: string): Promise<string[]> {
  const text = await readFile(path.join(migrationsFolder, `${tag}.sql`), 'utf8');
  return text.split('--> statement-breakpoint').map((s) => s.trim()).filter(Boolean);
}

describe('reception migration over existing data (real Postgres)', () => {
  const name = `test_${randomBytes(6).toString('hex')}`;
  let client: pg.Client;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    client = new pg.Client({ connectionString: inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`) });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('keeps types bookable, leaves old audit entries unlabelled, marks never-used invitations pending', async () => {
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const tags = journal.entries.map((e) => e.tag);
    const reception = tags.findIndex((tag) => tag.endsWith('_reception'));
    expect(reception).toBeGreaterThan(0);
    for (const tag of tags.slice(0, reception)) for (const statement of await statementsOf(tag)) await client.query(statement);

    await client.query(`insert into appointment_types (name, description) values ('Alt', 'a')`);
    const user = async (email: string) =>
      (await client.query(`insert into users (email, password_hash) values ($1, 'scrypt$1$1$1$AA$AA') returning id`, [email])).rows[0].id as string;
    let n = 0;
    const token = (userId: string, purpose: string, used: boolean) =>
      client.query(`insert into password_tokens (user_id, purpose, token_hash, expires_at, used_at) values ($1, $2, $3, now() + interval '1 day', $4)`, [
        userId,
        purpose,
        (++n).toString(16).padStart(64, '0'),
        used ? new Date() : null,
      ]);
    const founder = await user('gruender@example.org');
    const waiting = await user('wartet@example.org');
    await token(waiting, 'invitation', false);
    const accepted = await user('angenommen@example.org');
    await token(accepted, 'invitation', true);
    const viaForgot = await user('vergessen@example.org');
    await token(viaForgot, 'invitation', false);
    await token(viaForgot, 'reset', true);
    await client.query(`insert into audit_log (user_id, user_email, action, entity, entity_id) values ($1, 'gruender@example.org', 'create', 'user', $2)`, [founder, waiting]);

    for (const tag of tags.slice(reception)) for (const statement of await statementsOf(tag)) await client.query(statement);

    const { rows: types } = await client.query(`select online_bookable from appointment_types`);
    expect(types).toEqual([{ online_bookable: true }]);
    const { rows: pending } = await client.query(`select email, invitation_pending from users order by email`);
    expect(pending).toEqual([
      { email: 'angenommen@example.org', invitation_pending: false },
      { email: 'gruender@example.org', invitation_pending: false },
      { email: 'vergessen@example.org', invitation_pending: false },
      { email: 'wartet@example.org', invitation_pending: true },
    ]);
    const { rows: audit } = await client.query(`select label from audit_log`);
    expect(audit).toEqual([{ label: null }]);
    await expect(
      client.query(`insert into audit_log (user_id, user_email, action, entity, entity_id, label) values ($1, 'g@example.org', 'create', 'user', 'x', '')`, [founder]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'audit_log_label_length' });
  });
});
