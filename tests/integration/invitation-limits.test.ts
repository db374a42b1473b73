/**
 * Invitation resends are limited
 * (docs/decisions/028-hidden-characters-addresses-invitations-origin.md): 5
 * an hour to one colleague, whoever sends them, and 5 an hour by one staff
 * member, whoever receives them. Beyond that 429 with Retry-After and a
 * German reason; a refused resend sends nothing, audits nothing and the
 * newest link keeps working.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, passwordTokens, rateLimits } from '../../db/schema';
import adminUsers from '../../netlify/functions/admin-users';
import invite from '../../netlify/functions/admin-user-invite';
import reset from '../../netlify/functions/auth-reset';
import { asAdmin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const tokensIn = async (dir: string) =>
  (await readOutbox(path.join(dir, 'outbox'))).map((m) => /\/auth\/reset\?token=([A-Za-z0-9_-]{43})/.exec(m.text)![1]!);

describe.each(databaseKinds)('invitation resend limits on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'invitation-limits-', env: { POSTMARK_SERVER_TOKEN: '', SITE_URL: 'https://praxis.example' } } });
  let chefin: TestUser;
  let kollege: TestUser;
  const asChefin = asAdmin(() => chefin);
  const asKollege = asAdmin(() => kollege);
  // Each invitation is out (docs/decisions/035: sent after the answer) before the next is asked for, so the folder's order is theirs.
  const resend = async (api: typeof asChefin, id: string) => {
    const res = await api(invite, `/api/admin/users/${id}/invite`, { method: 'POST', params: { id } });
    await settled();
    return res;
  };
  let seq = 0;
  const invited = async () => {
    const res = await asChefin(adminUsers, '/api/admin/users', { method: 'POST', body: { email: `eingeladen-${++seq}@example.org`, invite: true } });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };
  const auditCount = async () => (await t.db.select().from(auditLog)).length;

  beforeAll(async () => {
    chefin = await createAdmin(t.db, { email: 'chefin@example.org' });
    kollege = await createAdmin(t.db, { email: 'kollege@example.org' });
  });
  beforeEach(async () => {
    await t.db.delete(rateLimits);
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
  });

  it('5 resends an hour to one colleague, from any admin; the 6th is 429 with Retry-After and a German reason, sends nothing, and the newest link still works', async () => {
    const id = await invited();
    for (let i = 0; i < 3; i++) expect((await resend(asChefin, id)).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await resend(asKollege, id)).status).toBe(201);
    const tokens = await tokensIn(t.dataDir);
    expect(tokens).toHaveLength(6);
    const audits = await auditCount();
    const tokenRows = (await t.db.select().from(passwordTokens)).length;

    for (const api of [asChefin, asKollege]) {
      const refused = await resend(api, id);
      expect(refused.status).toBe(429);
      expect(refused.json.type).toBe('rate-limited');
      expect(refused.json.detail).toBe('An diese Kollegin oder diesen Kollegen wurden in der letzten Stunde zu viele Einladungen gesendet. Bitte versuchen Sie es später erneut.');
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    }
    expect(await tokensIn(t.dataDir)).toHaveLength(6);
    expect(await auditCount()).toBe(audits);
    expect((await t.db.select().from(passwordTokens)).length).toBe(tokenRows);
    // Only the newest link works, as before the refusals.
    expect((await call(reset, '/api/auth/reset', { query: { token: tokens.at(-1)! } })).status).toBe(200);
    for (const old of tokens.slice(0, -1)) expect((await call(reset, '/api/auth/reset', { query: { token: old } })).status).toBe(404);
  });

  it('5 resends an hour by one staff member, to anyone; a colleague may still send', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await invited());
    for (const id of ids.slice(0, 5)) expect((await resend(asChefin, id)).status).toBe(201);
    const refused = await resend(asChefin, ids[5]!);
    expect(refused.status).toBe(429);
    expect(refused.json.detail).toBe('Sie haben in der letzten Stunde zu viele Einladungen gesendet. Bitte versuchen Sie es später erneut.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await resend(asKollege, ids[5]!)).status).toBe(201);
  });

  it('the window slides: an hour after the oldest resend, one more is allowed', async () => {
    const id = await invited();
    for (let i = 0; i < 5; i++) expect((await resend(asChefin, id)).status).toBe(201);
    expect((await resend(asChefin, id)).status).toBe(429);
    // Age the oldest hit of every limit past the hour.
    await t.db.execute(sql`update rate_limits set hits[1] = hits[1] - interval '61 minutes' where bucket like 'invite-%'`);
    expect((await resend(asChefin, id)).status).toBe(201);
    expect((await resend(asChefin, id)).status).toBe(429);
  });

  it('a resend refused for another reason (unknown, already active) costs nothing', async () => {
    const active = kollege.id;
    for (let i = 0; i < 6; i++) expect((await resend(asChefin, active)).status).toBe(409);
    for (let i = 0; i < 6; i++) expect((await resend(asChefin, '6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11')).status).toBe(404);
    const id = await invited();
    for (let i = 0; i < 5; i++) expect((await resend(asChefin, id)).status).toBe(201);
  });
});
