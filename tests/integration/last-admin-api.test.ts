/**
 * The last-admin rule with pending invitations
 * (docs/decisions/019-mail-config-and-last-admin.md): an invitation nobody
 * has accepted never counts as an admin, so the last admin who can sign in
 * cannot be removed while "only" an invitation is left; the invitation
 * itself can always be withdrawn; once accepted, the colleague counts.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { users } from '../../db/schema';
import adminUsers from '../../netlify/functions/admin-users';
import adminUser from '../../netlify/functions/admin-user';
import reset from '../../netlify/functions/auth-reset';
import { asAdmin, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

describe.each(databaseKinds)('last admin and pending invitations on %s', (kind) => {
  const t = useTestBed({ perTest: { database: kind, dataDir: 'last-admin-', env: { POSTMARK_SERVER_TOKEN: '' } } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const remove = (id: string) => api(adminUser, `/api/admin/users/${id}`, { method: 'DELETE', params: { id } });
  const invite = async (email: string) => {
    const res = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email, invite: true } });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };

  beforeEach(async () => {
    admin = await createAdmin(t.db, { email: 'chefin@example.org' });
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
  });

  it('the only admin who can sign in is not removed while just an invitation is pending; the invitation can be withdrawn', async () => {
    const invited = await invite('neu@example.org');
    const refused = await remove(admin.id);
    expect(refused.status).toBe(409);
    expect(refused.json.type).toBe('last-admin');
    expect(await t.db.select().from(users).where(eq(users.id, admin.id))).toHaveLength(1);
    expect((await remove(invited)).status).toBe(204);
    expect((await remove(admin.id)).status).toBe(409);
  });

  it('once the invitation is accepted, the colleague counts and the first admin may leave', async () => {
    await invite('neu@example.org');
    const [mail] = await readOutbox(t.outbox);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
    const accepted = await call(reset, '/api/auth/reset', { method: 'POST', body: { token, password: 'angenommen-2030' }, headers: { origin: siteOrigin() } });
    expect(accepted.status).toBe(204);
    expect((await remove(admin.id)).status).toBe(204);
  });
});
