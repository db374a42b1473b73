/**
 * "Passwort vergessen" and the password links
 * (docs/decisions/013-password-links-and-recovery.md): the answer never
 * waits on the lookup or the email; strangers can neither block an owner's
 * recovery nor kill the owner's link; a random-token reset is refused
 * before any hashing and resets are limited per client; any password
 * change, reset or accepted invitation retires every other link of the
 * user.
 */
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';
import { and, eq, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { passwordTokens, rateLimits } from '../../db/schema';
import adminUsers from '../../netlify/functions/admin-users';
import passwordFn from '../../netlify/functions/auth-password';
import forgot from '../../netlify/functions/auth-forgot';
import reset from '../../netlify/functions/auth-reset';
import login from '../../netlify/functions/auth-login';
import sessionFn from '../../netlify/functions/auth-session';
import { FORGOT_PER_CLIENT, MAX_LIVE_RESET_LINKS } from '../../src/server/auth/forgot.server';
import { RESETS_PER_CLIENT } from '../../src/server/auth/reset.server';
import { sha256Hex } from '../../src/server/auth/tokens.server';
import { asAdmin, errorsOf, siteOrigin } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { readOutbox } from '../helpers/eml';
import { call, settled } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

let ipCounter = 0;
const nextIp = () => `203.0.113.${++ipCounter % 250}`;

/** The token of the last link in an email's text. */
function tokenFrom(text: string): string {
  const match = /\/auth\/reset\?token=([A-Za-z0-9_-]{43})/.exec(text);
  if (!match) throw new Error(`no link in: ${text}`);
  return match[1]!;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Both spellings of one IPv4 client, and a rotation inside one IPv6 /64; each with a client outside. */
const SPELLINGS = [
  ['an IPv4 address and its IPv4-mapped IPv6 spelling', (i: number) => (i % 2 ? '198.51.100.99' : '::ffff:198.51.100.99'), '198.51.100.98'],
  ['addresses rotating inside one IPv6 /64', (i: number) => `2001:db8:20:1:${i.toString(16)}::1`, '2001:db8:20:2::1'],
] as const;

describe.each(databaseKinds)('password links on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'links-', env: { POSTMARK_SERVER_TOKEN: '', SITE_URL: 'https://praxis.example' } } });
  let admin: TestUser;
  const outbox = () => readOutbox(t.outbox);
  const requestReset = (email: string, ip: string = nextIp()) =>
    call(forgot, '/api/auth/forgot', { method: 'POST', body: { email }, ip, headers: { origin: siteOrigin() } });
  const setPassword = (token: string, password: string, ip: string = nextIp()) =>
    call(reset, '/api/auth/reset', { method: 'POST', body: { token, password }, ip, headers: { origin: siteOrigin() } });
  const signIn = (email: string, password: string) => call(login, '/api/auth/login', { method: 'POST', body: { email, password }, ip: nextIp() });
  /** Asks for a link and returns it once the email went out. */
  const linkFor = async (email: string) => {
    expect((await requestReset(email)).status).toBe(202);
    await settled();
    const mails = (await outbox()).filter((m) => m.headers.to === email);
    return tokenFrom(mails.at(-1)!.text);
  };

  beforeAll(async () => {
    admin = await createAdmin(t.db, { email: 'chefin@example.org' });
  });
  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await t.db.delete(rateLimits);
    await t.db.delete(passwordTokens);
  });
  afterEach(async () => {
    await settled();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  describe('Passwort vergessen', () => {
    it('answers 202 with the same body whether or not the address has an account; only an account gets a link', async () => {
      const user = await createAdmin(t.db, { email: 'vergesslich@example.org' });
      const known = await requestReset('Vergesslich@example.org');
      const unknown = await requestReset('niemand@example.org');
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.text).toBe(known.text);
      await settled();
      const mails = await outbox();
      expect(mails).toHaveLength(1);
      expect(mails[0]!.headers.to).toBe('vergesslich@example.org');
      expect(mails[0]!.subject).toBe('Passwort zurücksetzen – Praxis-Verwaltung');
      expect(mails[0]!.text).toContain('30 Minuten');
      const [row] = await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
      expect(row!.tokenHash).toBe(sha256Hex(tokenFrom(mails[0]!.text)));
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(30 * 60_000);
    });

    // On the real server only: PGlite runs inside the test's own process, where the work one answer
    // leaves (the lookup, the queued email and its delivery) shares the thread with the next answer.
    if (kind === 'postgres') it('the answer does not wait on the lookup or the email: the medians of known and unknown addresses are alike', async () => {
      await createAdmin(t.db, { email: 'zeit@example.org' });
      let sent = 0;
      /** Medians of 15 interleaved pairs of requests, for a known and an unknown address. */
      const round = async () => {
        const known: number[] = [];
        const unknown: number[] = [];
        for (let i = 0; i < 15; i++) {
          // Interleaved, so drift on a shared machine affects both alike; the
          // work left after each answer is finished before the next request.
          for (const [email, samples] of [['zeit@example.org', known], [`niemand${sent}-${i}@example.org`, unknown]] as const) {
            await t.db.delete(passwordTokens);
            const res = await requestReset(email);
            expect(res.status).toBe(202);
            // Until the answer is handed over; the lookup and the email come after it.
            samples.push(res.answeredAfterMs);
            await settled();
          }
        }
        sent += 15;
        return { known: median(known), unknown: median(unknown) };
      };
      const alike = (m: { known: number; unknown: number }) => m.known < m.unknown * 1.5 + 1 && m.unknown < m.known * 1.5 + 1;
      // Before: 14.2 ms vs 7.8 ms, in every round. The answer now does the same
      // work for both. A busy machine can tip one round; a real difference
      // tips all three, so up to three rounds are measured.
      const rounds = [await round()];
      while (!alike(rounds.at(-1)!) && rounds.length < 3) rounds.push(await round());
      expect(rounds.some(alike), `medians (ms) per round: ${JSON.stringify(rounds)}`).toBe(true);
      expect((await outbox()).length).toBe(sent);
    });

    if (kind === 'postgres') it('answers while the account lookup is still blocked, and the email follows', async () => {
      await createAdmin(t.db, { email: 'blockiert@example.org' });
      const holder = new pg.Client({ connectionString: t.url });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query(`select 1 from users where email = 'blockiert@example.org' for update`);
        expect((await requestReset('blockiert@example.org')).status).toBe(202);
        expect(await readOutbox(t.outbox, { waitForWork: false })).toEqual([]);
        await holder.query('commit');
      } finally {
        await holder.end();
      }
      await settled();
      expect((await outbox()).map((m) => m.headers.to)).toEqual(['blockiert@example.org']);
    });

    it(`limits each client to ${FORGOT_PER_CLIENT.max} requests an hour: 429 with Retry-After until its oldest request leaves the hour`, async () => {
      const ip = '192.0.2.77';
      const start = Date.now();
      vi.useFakeTimers({ now: start - 20 * 60_000, toFake: ['Date'] });
      expect((await requestReset('person0@example.org', ip)).status).toBe(202);
      vi.useRealTimers();
      for (let i = 1; i < FORGOT_PER_CLIENT.max; i++) expect((await requestReset(`person${i}@example.org`, ip)).status).toBe(202);
      const limited = await requestReset('noch-eine@example.org', ip);
      expect(limited.status).toBe(429);
      expect(limited.json).toMatchObject({ type: 'rate-limited', detail: 'Zu viele Anfragen von diesem Anschluss. Bitte versuchen Sie es später erneut.' });
      // The oldest request was 20 minutes ago: 40 minutes are left, and the text names no other time.
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(40 * 60 - 30);
      expect(retryAfter).toBeLessThanOrEqual(40 * 60);
      expect((await requestReset('noch-eine@example.org', '192.0.2.78')).status).toBe(202);
      // Keys are HMACs, not addresses.
      expect(JSON.stringify(await t.db.select().from(rateLimits))).not.toContain('192.0.2.77');
    });

    it.each(SPELLINGS)('keys the client canonically: %s count as one client', async (_what, spelling, otherClient) => {
      for (let i = 0; i < FORGOT_PER_CLIENT.max; i++) expect((await requestReset(`p${i}@example.org`, spelling(i))).status).toBe(202);
      expect((await requestReset('p@example.org', spelling(FORGOT_PER_CLIENT.max))).status).toBe(429);
      expect((await requestReset('p@example.org', otherClient)).status).toBe(202);
    });

    it('strangers on many connections can neither block the owner nor kill the link the owner already has', async () => {
      const owner = await createAdmin(t.db, { email: 'besitzerin@example.org', password: 'altes-passwort-1' });
      const ownersLink = await linkFor(owner.email);
      // Twenty strangers, each from its own connection, ask for the owner's address.
      for (let i = 0; i < 20; i++) expect((await requestReset(owner.email, `10.20.${i}.1`)).status).toBe(202);
      // The owner's own request is answered like any other: never a 429 for the address.
      expect((await requestReset(owner.email, '10.99.0.1')).status).toBe(202);
      await settled();
      // At most a few links reached the owner's mailbox, every one of them valid.
      const mails = (await outbox()).filter((m) => m.headers.to === owner.email);
      expect(mails).toHaveLength(MAX_LIVE_RESET_LINKS);
      const live = await t.db
        .select()
        .from(passwordTokens)
        .where(and(eq(passwordTokens.userId, owner.id), isNull(passwordTokens.usedAt)));
      expect(live).toHaveLength(MAX_LIVE_RESET_LINKS);
      expect((await setPassword(ownersLink, 'neues-passwort-1')).status).toBe(204);
      expect((await signIn(owner.email, 'neues-passwort-1')).status).toBe(200);
    });

    it('once the links have expired the owner gets a new one', async () => {
      const owner = await createAdmin(t.db, { email: 'spaeter@example.org' });
      for (let i = 0; i < MAX_LIVE_RESET_LINKS; i++) await linkFor(owner.email);
      await requestReset(owner.email);
      await settled();
      expect((await outbox()).length).toBe(MAX_LIVE_RESET_LINKS);
      vi.useFakeTimers({ now: Date.now() + 31 * 60_000, toFake: ['Date'] });
      const token = await linkFor(owner.email);
      expect((await outbox()).length).toBe(MAX_LIVE_RESET_LINKS + 1);
      expect((await setPassword(token, 'wieder-da-2030')).status).toBe(204);
    });

    if (kind === 'postgres') it('parallel requests for one account issue at most the allowed number of links', async () => {
      const owner = await createAdmin(t.db, { email: 'ansturm@example.org' });
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => requestReset(owner.email, `10.30.${i}.1`)));
      expect(results.every((r) => r.status === 202)).toBe(true);
      await settled();
      expect(await t.db.select().from(passwordTokens).where(eq(passwordTokens.userId, owner.id))).toHaveLength(MAX_LIVE_RESET_LINKS);
    });

    it('answers 400 for a bad address, counting and storing nothing', async () => {
      expect(errorsOf(await requestReset('kein-at')).email).toEqual(['errors.emailInvalid']);
      expect(await t.db.select().from(rateLimits)).toEqual([]);
    });

    it('a failed email still answers 202 and is logged by name only', async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      await createAdmin(t.db, { email: 'kaputt@example.invalid' });
      expect((await requestReset('kaputt@example.invalid')).status).toBe(202);
      await settled();
      // Queued with the link, refused by the mail service, logged by kind: never the address (docs/decisions/035).
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^email [0-9a-f-]+ \(account-password-reset\) failed: UndeliverableError$/));
      expect(warn.mock.calls.flat().join('\n')).not.toContain('kaputt@');
    });
  });

  describe('setting a password from a link', () => {
    it('the link sets a new password once, ends every session of the user, and then answers 404', async () => {
      const user = await createAdmin(t.db, { password: 'vergessen-2030' });
      const token = await linkFor(user.email);
      expect((await setPassword(token, 'erinnert-2030')).status).toBe(204);
      expect((await call(sessionFn, '/api/auth/session', { headers: { cookie: user.cookie } })).status).toBe(401);
      expect((await signIn(user.email, 'vergessen-2030')).status).toBe(401);
      expect((await signIn(user.email, 'erinnert-2030')).status).toBe(200);
      const again = await setPassword(token, 'nochmal-2030');
      expect(again.status).toBe(404);
      expect(again.json).toMatchObject({ type: 'not-found', detail: 'Der Link ist ungültig, abgelaufen oder wurde bereits verwendet.' });
    });

    it('a link used twice at the same moment sets the password exactly once', async () => {
      const user = await createAdmin(t.db);
      const token = await linkFor(user.email);
      const results = await Promise.all(['parallel-a-2030', 'parallel-b-2030', 'parallel-c-2030'].map((pw) => setPassword(token, pw)));
      expect(results.map((r) => r.status).sort()).toEqual([204, 404, 404]);
    });

    it('a link is refused after 30 minutes', async () => {
      const user = await createAdmin(t.db);
      const token = await linkFor(user.email);
      vi.useFakeTimers({ now: Date.now() + 30 * 60_000 + 1000, toFake: ['Date'] });
      expect((await setPassword(token, 'zu-spaet-2030')).status).toBe(404);
    });

    it.each([
      ['a malformed token', { token: 'abc', password: 'gutes-passwort-1' }, 'token', 'errors.tokenInvalid'],
      ['a short password', { token: 'a'.repeat(43), password: 'x' }, 'password', 'errors.passwordTooShort'],
    ])('answers 400 for %s', async (_, body, field, key) => {
      expect(errorsOf(await call(reset, '/api/auth/reset', { method: 'POST', body, headers: { origin: siteOrigin() } }))[field]).toEqual([key]);
    });

    it('an unknown, used or expired token is refused with 404 before any password hashing', async () => {
      const user = await createAdmin(t.db);
      const used = await linkFor(user.email);
      expect((await setPassword(used, 'erstes-passwort-1')).status).toBe(204);
      const expired = await linkFor(user.email);
      await t.db.update(passwordTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordTokens.tokenHash, sha256Hex(expired)));
      const scrypt = vi.spyOn(crypto, 'scrypt');
      syncBuiltinESMExports();
      try {
        for (const token of ['b'.repeat(43), used, expired]) expect((await setPassword(token, 'gutes-passwort-1')).status).toBe(404);
        expect(scrypt).not.toHaveBeenCalled();
      } finally {
        scrypt.mockRestore();
        syncBuiltinESMExports();
      }
    });

    it(`limits each client to ${RESETS_PER_CLIENT.max} attempts in 15 minutes: 429 with Retry-After, even for a good link`, async () => {
      const user = await createAdmin(t.db);
      const token = await linkFor(user.email);
      for (let i = 0; i < RESETS_PER_CLIENT.max; i++) expect((await setPassword(crypto.randomBytes(32).toString('base64url'), 'gutes-passwort-1', '192.0.2.90')).status).toBe(404);
      const limited = await setPassword(token, 'gutes-passwort-1', '192.0.2.90');
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(15 * 60 - 30);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Nothing was used up: the link works from another connection.
      expect((await setPassword(token, 'gutes-passwort-1', '192.0.2.91')).status).toBe(204);
    });

    it.each(SPELLINGS)('keys the client canonically: %s count as one client', async (_what, spelling, otherClient) => {
      for (let i = 0; i < RESETS_PER_CLIENT.max; i++) expect((await setPassword('c'.repeat(43), 'gutes-passwort-1', spelling(i))).status).toBe(404);
      expect((await setPassword('c'.repeat(43), 'gutes-passwort-1', spelling(99))).status).toBe(429);
      expect((await setPassword('c'.repeat(43), 'gutes-passwort-1', otherClient)).status).toBe(404);
    });
  });

  describe('a new password retires every other link of the user', () => {
    it('a reset link issued before a password change no longer works after it', async () => {
      const me = await createAdmin(t.db, { password: 'altes-passwort-1' });
      const token = await linkFor(me.email);
      const change = await call(passwordFn, '/api/auth/password', {
        method: 'POST',
        body: { currentPassword: 'altes-passwort-1', newPassword: 'neues-passwort-1' },
        headers: { cookie: me.cookie, origin: siteOrigin() },
      });
      expect(change.status).toBe(204);
      expect((await setPassword(token, 'fremdes-passwort-1')).status).toBe(404);
      expect((await signIn(me.email, 'neues-passwort-1')).status).toBe(200);
    });

    it('an invitation no longer works once the invitee has reset their password, nor an older reset link', async () => {
      const invited = await asAdmin(() => admin)(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'eingeladen@example.org', invite: true } });
      expect(invited.status).toBe(201);
      await settled();
      const invitation = tokenFrom((await outbox())[0]!.text);
      const first = await linkFor('eingeladen@example.org');
      const second = await linkFor('eingeladen@example.org');
      expect((await setPassword(second, 'selbst-gesetzt-1')).status).toBe(204);
      expect((await setPassword(invitation, 'uebernommen-2030')).status).toBe(404);
      expect((await setPassword(first, 'uebernommen-2030')).status).toBe(404);
      expect((await signIn('eingeladen@example.org', 'selbst-gesetzt-1')).status).toBe(200);
    });

    it('an accepted invitation retires a reset link asked for meanwhile', async () => {
      await asAdmin(() => admin)(adminUsers, '/api/admin/users', { method: 'POST', body: { email: 'neu-im-team@example.org', invite: true } });
      await settled();
      const invitation = tokenFrom((await outbox())[0]!.text);
      const resetLink = await linkFor('neu-im-team@example.org');
      expect((await setPassword(invitation, 'angenommen-2030')).status).toBe(204);
      expect((await setPassword(resetLink, 'uebernommen-2030')).status).toBe(404);
      const open = await t.db.execute(sql`select count(*)::int as n from password_tokens where used_at is null`);
      expect((open as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
    });
  });
});
