/**
 * Invitations (docs/decisions/020-reception.md): a pending colleague
 * is listed as `invited` with the link's expiry, can be sent a new link
 * (POST /api/admin/users/:id/invite; the old link stops working), the link
 * names its account (GET /api/auth/reset?token=…), and accepting it is
 * audited as `invitation-accept`, after which the colleague is
 * `active`.
 */
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, passwordTokens, users } from '../../db/schema';
import adminUsers from '../../netlify/functions/admin-users';
import invite, { config as inviteConfig } from '../../netlify/functions/admin-user-invite';
import reset from '../../netlify/functions/auth-reset';
import { asAdmin, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const tokenFrom = (text: string) => /\/auth\/reset\?token=([A-Za-z0-9_-]{43})/.exec(text)![1]!;

describe.each(databaseKinds)('invitations on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'invitations-', env: { POSTMARK_SERVER_TOKEN: '', SITE_URL: 'https://praxis.example' } } });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const outbox = () => readOutbox(t.outbox);
  const account = (token: string) => call(reset, '/api/auth/reset', { query: { token } });
  const setPassword = (token: string, password: string) =>
    call(reset, '/api/auth/reset', { method: 'POST', body: { token, password }, headers: { origin: siteOrigin() } });
  const resend = (id: string) => api(invite, `/api/admin/users/${id}/invite`, { method: 'POST', params: { id } });
  const listed = async (email: string) => (await api(adminUsers, '/api/admin/users')).json.find((u: { email: string }) => u.email === email);

  beforeAll(async () => {
    admin = await createAdmin(t.db, { email: 'chefin@example.org' });
  });
  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('is routed as docs/architecture.md (HTTP API) says', () => expect(inviteConfig.path).toBe('/api/admin/users/:id/invite'));

  it('lists an invited colleague as invited until the link expires; sent again, the old link stops working; accepted, active', async () => {
    const before = Date.now();
    const created = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'neu@example.org', invite: true } });
    expect(created.status).toBe(201);
    const first = tokenFrom((await outbox())[0]!.text);
    const pending = await listed('neu@example.org');
    expect(pending).toMatchObject({ status: 'invited' });
    expect(Date.parse(pending.invited_until) - before).toBeGreaterThanOrEqual(48 * 3600_000 - 5000);
    expect((await listed('chefin@example.org')).status).toBe('active');

    // The link names its account.
    const named = await account(first);
    expect(named.status).toBe(200);
    expect(named.json).toEqual({ purpose: 'invitation', email: 'neu@example.org', expires_at: pending.invited_until });

    // Sent again: a new email, a new expiry, the first link is dead.
    vi.useFakeTimers({ now: Date.now() + 60_000, toFake: ['Date'] });
    const again = await resend(created.json.id);
    expect(again.status).toBe(201);
    expect(again.json).toMatchObject({ id: created.json.id, email: 'neu@example.org', invitationSent: true });
    expect(Date.parse(again.json.invited_until)).toBeGreaterThan(Date.parse(pending.invited_until));
    const mails = await outbox();
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Einladung zur Praxis-Verwaltung');
    const second = tokenFrom(mails[1]!.text);
    expect(second).not.toBe(first);
    expect((await account(first)).status).toBe(404);
    expect((await setPassword(first, 'erstes-passwort-1')).status).toBe(404);
    expect((await listed('neu@example.org')).invited_until).toBe(again.json.invited_until);

    // Accepted: active, and the audit says so (not a password reset), labelled with the account.
    expect((await setPassword(second, 'mein-passwort-1')).status).toBe(204);
    expect(await listed('neu@example.org')).toMatchObject({ status: 'active', invited_until: null });
    const entries = await t.db.select().from(auditLog).where(eq(auditLog.entityId, created.json.id));
    expect(entries.map((e) => [e.userEmail, e.action, e.label])).toEqual([
      ['chefin@example.org', 'invite', 'neu@example.org'],
      ['chefin@example.org', 'invite', 'neu@example.org'],
      ['neu@example.org', 'invitation-accept', 'neu@example.org'],
    ]);
    // Nothing left to send to an active colleague.
    const refused = await resend(created.json.id);
    expect(refused.status).toBe(409);
    expect(refused.json.type).toBe('conflict');
    expect(await outbox()).toHaveLength(2);
  });

  it('an expired invitation is still invited, with no expiry, and can be sent again', async () => {
    const created = await api(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'spaet@example.org', invite: true } });
    // 48 hours on (the admin's own session would have ended by then, so the link's expiry moves back instead).
    await t.db.update(passwordTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordTokens.userId, created.json.id));
    expect(await listed('spaet@example.org')).toMatchObject({ status: 'invited', invited_until: null });
    expect((await resend(created.json.id)).status).toBe(201);
    expect((await listed('spaet@example.org')).invited_until).not.toBeNull();
  });

  it('a reset link names its account too; unknown, malformed or missing tokens are 404', async () => {
    const [user] = await t.db.select().from(users).where(eq(users.email, 'chefin@example.org'));
    expect(user).toBeDefined();
    for (const token of ['A'.repeat(43), 'kurz', '']) {
      const res = await account(token);
      expect(res.status).toBe(404);
      expect(res.json.type).toBe('not-found');
    }
    expect((await call(reset, '/api/auth/reset')).status).toBe(404);
  });

  it('resending for an unknown or malformed id is 404 and writes nothing', async () => {
    const before = (await t.db.select().from(auditLog)).length;
    expect((await resend('6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11')).status).toBe(404);
    expect((await resend('nix')).status).toBe(404);
    expect(await t.db.select().from(auditLog)).toHaveLength(before);
  });
});
