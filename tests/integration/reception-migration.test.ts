/**
 * The reception migration (docs/decisions/020-reception.md) on a database
 * of the release before: existing types stay online-bookable, existing
 * audit entries keep no label, and a colleague whose invitation was never
 * used (and who never used any link) is pending; one who accepted, or who
 * set a password through "Passwort vergessen", is active. Runs the
 * committed SQL files in journal order on the real Postgres.
 */
import { describe, expect, it } from 'vitest';
import { useTestBed } from '../setup/test-bed';

describe('reception migration over existing data (real Postgres)', () => {
  const db = useTestBed({ scratchDatabase: true }).scratch;

  it('keeps types bookable, leaves old audit entries unlabelled, marks never-used invitations pending', async () => {
    const migrations = await db.migrationsAround('_reception');
    await migrations.before();
    const client = db.client();

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

    await migrations.rest();

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
