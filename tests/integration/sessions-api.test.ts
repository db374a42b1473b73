/**
 * "Angemeldete Geräte" (docs/decisions/037-passkeys-sessions-guessing.md):
 * an account's live sessions with browser and system from the User-Agent,
 * first and last use (kept by sign-in and refresh, not by every request),
 * the current one marked; "Abmelden" per session, "Alle anderen
 * abmelden", and an admin's view and end of a colleague's sessions; every
 * ending audited.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, sessions } from '../../db/schema';
import userSession, { config as userSessionConfig } from '../../netlify/functions/admin-user-session';
import userSessions, { config as userSessionsConfig } from '../../netlify/functions/admin-user-sessions';
import adminStats from '../../netlify/functions/admin-stats';
import login from '../../netlify/functions/auth-login';
import refresh from '../../netlify/functions/auth-refresh';
import sessionItem, { config as itemConfig } from '../../netlify/functions/auth-session-item';
import ownSessions, { config as listConfig } from '../../netlify/functions/auth-sessions';
import { asCookie, errorsOf, siteOrigin } from '../helpers/admin-call';
import logout from '../../netlify/functions/auth-logout';
import { createAdmin } from '../helpers/auth';
import { call, cookieHeaderOf } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';


const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

describe.each(databaseKinds)('sessions staff can see on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'sessions-', env: { SITE_URL: 'https://praxis.example' } } });
  let clock = Date.UTC(2030, 4, 6, 8, 0, 0);
  const advance = (seconds: number) => {
    clock += seconds * 1000;
    vi.setSystemTime(clock);
  };
  const as = (cookie: string) => asCookie(cookie);
  const signIn = async (email: string, password: string, userAgent: string) => {
    const res = await call(login, '/api/auth/login', { method: 'POST', body: { email, password }, headers: { origin: siteOrigin(), 'user-agent': userAgent } });
    expect(res.status).toBe(200);
    return { cookie: cookieHeaderOf(res), res };
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    clock += 60 * 60 * 1000;
    vi.setSystemTime(clock);
  });
  afterEach(() => vi.useRealTimers());

  it('is routed as the API says', () => {
    expect(listConfig.path).toBe('/api/auth/sessions');
    expect(itemConfig.path).toBe('/api/auth/sessions/:id');
    expect(userSessionsConfig.path).toBe('/api/admin/users/:id/sessions');
    expect(userSessionConfig.path).toBe('/api/admin/users/:id/sessions/:session');
  });

  it('lists the account’s live sessions with browser, system, first and last use, the current one marked; last use moves on refresh only', async () => {
    const user = await createAdmin(t.db);
    const pc = await signIn(user.email, user.password, WINDOWS_CHROME);
    const pcStart = new Date(clock);
    advance(600);
    const phone = await signIn(user.email, user.password, IPHONE);
    const phoneStart = new Date(clock);
    // Another account's sessions never show.
    const other = await createAdmin(t.db);
    await signIn(other.email, other.password, WINDOWS_CHROME);
    advance(60);

    const list = await as(phone.cookie)(ownSessions, '/api/auth/sessions');
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const byAgent = (ua: string | null) => list.json.find((s: { user_agent: string | null }) => s.user_agent === ua);
    expect(list.json).toHaveLength(3);
    expect(byAgent(WINDOWS_CHROME)).toMatchObject({ browser: 'Chrome 120', system: 'Windows 10', created_at: pcStart.toISOString(), last_used_at: pcStart.toISOString(), current: false });
    expect(byAgent(IPHONE)).toMatchObject({ browser: 'Safari 17', system: 'iOS 17.1', created_at: phoneStart.toISOString(), current: true });
    // The test helper's session has no User-Agent.
    expect(byAgent(null)).toMatchObject({ browser: null, system: null, current: false });
    expect(Object.keys(list.json[0]).sort()).toEqual(['browser', 'created_at', 'current', 'id', 'last_used_at', 'name', 'system', 'user_agent']);

    // A request does not move last use; a refresh does.
    advance(120);
    expect((await as(pc.cookie)(adminStats, '/api/admin/stats')).status).toBe(200);
    expect((await as(phone.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { user_agent: string }) => s.user_agent === WINDOWS_CHROME).last_used_at).toBe(pcStart.toISOString());
    const refreshed = await as(pc.cookie)(refresh, '/api/auth/refresh', { method: 'POST' });
    expect(refreshed.status).toBe(200);
    expect((await as(phone.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { user_agent: string }) => s.user_agent === WINDOWS_CHROME).last_used_at).toBe(new Date(clock).toISOString());
  });

  it('keeps at most 512 characters of a User-Agent', async () => {
    const user = await createAdmin(t.db);
    const long = `${WINDOWS_CHROME} ${'x'.repeat(1000)}`;
    const pc = await signIn(user.email, user.password, long);
    const rows = await t.db.select().from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    expect(rows.find((r) => r.userAgent?.startsWith('Mozilla'))!.userAgent).toBe(long.slice(0, 512));
    expect((await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { current: boolean }) => s.current).browser).toBe('Chrome 120');
  });

  it('"Abmelden" ends one session of one’s own, audited; another account’s session is unknown', async () => {
    const user = await createAdmin(t.db);
    const pc = await signIn(user.email, user.password, WINDOWS_CHROME);
    const phone = await signIn(user.email, user.password, IPHONE);
    const other = await createAdmin(t.db);
    const phoneId = (await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { user_agent: string }) => s.user_agent === IPHONE).id;
    const end = (cookie: string, id: string) => as(cookie)(sessionItem, `/api/auth/sessions/${id}`, { method: 'DELETE', params: { id } });

    expect((await end(other.cookie, phoneId)).status).toBe(404);
    expect((await as(phone.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(200);
    expect((await end(pc.cookie, 'kein-uuid')).status).toBe(404);
    const cross = await call(sessionItem, `/api/auth/sessions/${phoneId}`, { method: 'DELETE', params: { id: phoneId }, headers: { cookie: pc.cookie, origin: 'https://evil.example' } });
    expect(cross.status).toBe(403);

    const res = await end(pc.cookie, phoneId);
    expect(res.status).toBe(204);
    expect((await as(phone.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(401);
    expect((await as(phone.cookie)(refresh, '/api/auth/refresh', { method: 'POST' })).status).toBe(401);
    expect((await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json.map((s: { id: string }) => s.id)).not.toContain(phoneId);
    expect((await end(pc.cookie, phoneId)).status).toBe(404);
    const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'session-end'), eq(auditLog.entityId, phoneId)));
    expect(entry).toMatchObject({ userId: user.id, entity: 'session', label: `${user.email}: Safari 17 auf iOS 17.1` });

    // Ending the current session signs out: its cookies are cleared.
    const pcId = (await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { current: boolean }) => s.current).id;
    const self = await end(pc.cookie, pcId);
    expect(self.status).toBe(204);
    expect(self.headers.getSetCookie().some((c) => c.startsWith('praxis_access=;') && c.includes('Max-Age=0'))).toBe(true);
    expect((await as(pc.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(401);
  });

  it('"Alle anderen abmelden" ends every other session of the account and keeps this one', async () => {
    const user = await createAdmin(t.db);
    const pc = await signIn(user.email, user.password, WINDOWS_CHROME);
    const phone = await signIn(user.email, user.password, IPHONE);
    const other = await createAdmin(t.db);
    const res = await as(pc.cookie)(sessionItem, '/api/auth/sessions/end-others', { method: 'POST', params: { id: 'end-others' } });
    expect(res.status).toBe(204);
    expect((await as(phone.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(401);
    expect((await as(user.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(401);
    const left = await as(pc.cookie)(ownSessions, '/api/auth/sessions');
    expect(left.json).toHaveLength(1);
    expect(left.json[0].current).toBe(true);
    expect((await as(other.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(200);
    const entries = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'session-end'), eq(auditLog.userId, user.id)));
    expect(entries).toHaveLength(2);
    // Only POST on end-others; another word is no action.
    expect((await as(pc.cookie)(sessionItem, '/api/auth/sessions/alle', { method: 'POST', params: { id: 'alle' } })).status).toBe(404);
  });

  it('an admin sees a colleague’s sessions and ends one or all of them, audited under the admin', async () => {
    const chief = await createAdmin(t.db);
    const colleague = await createAdmin(t.db);
    const pc = await signIn(colleague.email, colleague.password, WINDOWS_CHROME);
    const phone = await signIn(colleague.email, colleague.password, IPHONE);
    const base = `/api/admin/users/${colleague.id}/sessions`;
    const list = await as(chief.cookie)(userSessions, base, { params: { id: colleague.id } });
    expect(list.status).toBe(200);
    expect(list.json).toHaveLength(3);
    expect(list.json.every((s: { current: boolean }) => !s.current)).toBe(true);
    const phoneId = list.json.find((s: { user_agent: string }) => s.user_agent === IPHONE).id;

    const one = await as(chief.cookie)(userSession, `${base}/${phoneId}`, { method: 'DELETE', params: { id: colleague.id, session: phoneId } });
    expect(one.status).toBe(204);
    expect((await as(phone.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(401);
    expect((await as(pc.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(200);
    const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'session-end'), eq(auditLog.entityId, phoneId)));
    expect(entry).toMatchObject({ userId: chief.id, label: `${colleague.email}: Safari 17 auf iOS 17.1` });
    // A session of another account under this colleague's path is unknown.
    expect((await as(chief.cookie)(userSession, `${base}/${chief.sessionId}`, { method: 'DELETE', params: { id: colleague.id, session: chief.sessionId } })).status).toBe(404);
    expect((await as(chief.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(200);

    const all = await as(chief.cookie)(userSessions, base, { method: 'DELETE', params: { id: colleague.id } });
    expect(all.status).toBe(204);
    expect((await as(pc.cookie)(ownSessions, '/api/auth/sessions')).status).toBe(401);
    expect((await as(chief.cookie)(userSessions, base, { params: { id: colleague.id } })).json).toEqual([]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await as(chief.cookie)(userSessions, `/api/admin/users/${unknown}/sessions`, { params: { id: unknown } })).status).toBe(404);
  });

  describe('telling sessions apart and why one ended (docs/decisions/041)', () => {
    const rename = (cookie: string, id: string, body: unknown) => as(cookie)(sessionItem, `/api/auth/sessions/${id}`, { method: 'PUT', params: { id }, body });

    it('its owner names a session ("Empfang PC 2"): listed, audited with an ending, by the admin text rules; nobody else names it', async () => {
      const user = await createAdmin(t.db);
      const pc = await signIn(user.email, user.password, WINDOWS_CHROME);
      const phone = await signIn(user.email, user.password, IPHONE);
      const other = await createAdmin(t.db);
      const pcId = (await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { current: boolean }) => s.current).id;

      const named = await rename(phone.cookie, pcId, { name: '  Empfang PC 2 ' });
      expect(named.status).toBe(200);
      expect(named.headers.get('cache-control')).toBe('no-store');
      expect(named.json).toMatchObject({ id: pcId, name: 'Empfang PC 2', browser: 'Chrome 120', current: false });
      expect((await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { id: string }) => s.id === pcId)).toMatchObject({ name: 'Empfang PC 2', current: true });
      // Bad input: 400 naming the field, nothing changed.
      expect(errorsOf(await rename(pc.cookie, pcId, { name: 'x'.repeat(61) }))).toEqual({ name: ['admin.errors.tooLong'] });
      expect(Object.keys(errorsOf(await rename(pc.cookie, pcId, { name: 'Empfang\nPC' })))).toEqual(['name']);
      expect((await rename(pc.cookie, pcId, { name: 'Empfang', extra: 1 })).status).toBe(400);
      // Another account's session, an unknown id, another site: unknown or refused.
      expect((await rename(other.cookie, pcId, { name: 'Meins' })).status).toBe(404);
      expect((await rename(pc.cookie, '00000000-0000-4000-8000-000000000000', { name: 'X' })).status).toBe(404);
      const cross = await call(sessionItem, `/api/auth/sessions/${pcId}`, { method: 'PUT', params: { id: pcId }, body: { name: 'X' }, headers: { cookie: pc.cookie, origin: 'https://evil.example' } });
      expect(cross.status).toBe(403);
      const [row] = await t.db.select().from(sessions).where(eq(sessions.id, pcId));
      expect(row!.name).toBe('Empfang PC 2');
      // Empty removes the name.
      expect((await rename(pc.cookie, pcId, { name: '' })).json).toMatchObject({ name: null });
      await rename(pc.cookie, pcId, { name: 'Empfang PC 2' });
      // The audit of an ending names it.
      expect((await as(phone.cookie)(sessionItem, `/api/auth/sessions/${pcId}`, { method: 'DELETE', params: { id: pcId } })).status).toBe(204);
      const [entry] = await t.db.select().from(auditLog).where(and(eq(auditLog.action, 'session-end'), eq(auditLog.entityId, pcId)));
      expect(entry!.label).toBe(`${user.email}: Chrome 120 auf Windows 10 (Empfang PC 2)`);
    });

    it('the ended device’s refresh says why (reason session-ended), whether its owner or an admin ended it; other refusals say nothing', async () => {
      const chief = await createAdmin(t.db);
      const user = await createAdmin(t.db);
      const pc = await signIn(user.email, user.password, WINDOWS_CHROME);
      const phone = await signIn(user.email, user.password, IPHONE);
      const tablet = await signIn(user.email, user.password, IPHONE);
      const ids = (await as(pc.cookie)(ownSessions, '/api/auth/sessions')).json as Array<{ id: string; current: boolean; user_agent: string }>;
      const phoneId = (await as(phone.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { current: boolean }) => s.current).id;
      const tabletId = (await as(tablet.cookie)(ownSessions, '/api/auth/sessions')).json.find((s: { current: boolean }) => s.current).id;
      expect(ids.length).toBe(4);
      const refreshOf = (cookie: string) => as(cookie)(refresh, '/api/auth/refresh', { method: 'POST' });

      // Its owner ends the phone from the PC; an admin ends the tablet.
      await as(pc.cookie)(sessionItem, `/api/auth/sessions/${phoneId}`, { method: 'DELETE', params: { id: phoneId } });
      await as(chief.cookie)(userSession, `/api/admin/users/${user.id}/sessions/${tabletId}`, { method: 'DELETE', params: { id: user.id, session: tabletId } });
      expect(await t.db.select({ id: sessions.id, endedBy: sessions.endedBy }).from(sessions).where(eq(sessions.userId, user.id))).toEqual(
        expect.arrayContaining([
          { id: phoneId, endedBy: 'owner' },
          { id: tabletId, endedBy: 'admin' },
        ]),
      );
      for (const ended of [phone, tablet]) {
        const res = await refreshOf(ended.cookie);
        expect(res.status).toBe(401);
        expect(res.json).toMatchObject({ type: 'unauthenticated', reason: 'session-ended' });
        // The cookies go as for any refused refresh.
        expect(res.headers.getSetCookie().some((c) => c.includes('Max-Age=0'))).toBe(true);
      }

      // A signed-out session, a made-up token and no token say nothing more than 401.
      expect((await as(pc.cookie)(logout, '/api/auth/logout', { method: 'POST' })).status).toBe(204);
      const signedOut = await refreshOf(pc.cookie);
      expect(signedOut.status).toBe(401);
      expect(signedOut.json.reason).toBeUndefined();
      const stranger = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { origin: siteOrigin(), cookie: `praxis_refresh=${phoneId}.${'A'.repeat(43)}` } });
      expect(stranger.status).toBe(401);
      expect(stranger.json.reason).toBeUndefined();
      const none = await call(refresh, '/api/auth/refresh', { method: 'POST', headers: { origin: siteOrigin() } });
      expect(none.json.reason).toBeUndefined();
      // A live session's own refresh works as before.
      const live = await signIn(user.email, user.password, WINDOWS_CHROME);
      expect((await refreshOf(live.cookie)).status).toBe(200);
      expect(await t.db.select().from(sessions).where(and(eq(sessions.userId, user.id), isNull(sessions.endedBy), isNull(sessions.revokedAt)))).toHaveLength(2);
    });
  });
});
