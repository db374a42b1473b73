import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import handler, { config } from '../../netlify/functions/contact';
import { contactAttempts } from '../../db/schema';
import { CONTACT_RATE_LIMIT } from '../../src/lib/contact-message';
import { builtContactPage } from '../helpers/contact-page';
import { readOutbox } from '../helpers/eml';
import { call } from '../helpers/http';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const valid = {
  name: 'Erika Mustermann',
  email: 'erika@example.org',
  phone: '+49 211 123456',
  subject: 'Frage zur Impfung',
  message: 'Guten Tag,\nwann kann ich zur Grippeimpfung kommen?',
  language: 'de',
};

let ipCounter = 0;
/** Each test its own client address, so the rate limit of one does not leak into another. */
const nextIp = () => `203.0.113.${++ipCounter}`;

describe.each(databaseKinds)('POST /api/contact on %s', (kind) => {
  const t = useTestBed({ database: kind, perTest: { dataDir: 'contact-', env: { PRACTICE_EMAIL: 'praxis@example.org', POSTMARK_SERVER_TOKEN: '' } } });
  const outbox = () => readOutbox(t.outbox);
  const post = (body: unknown, ip = nextIp()) => call(handler, '/api/contact', { method: 'POST', body, ip });

  beforeEach(async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
  });

  it('is routed at the path of docs/architecture.md (HTTP API) and allows only POST', async () => {
    expect(config.path).toBe('/api/contact');
    const res = await call(handler, '/api/contact');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('sends the message to the practice with reply-to the sender and stores nothing of it', async () => {
    const res = await post(valid);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.headers.to).toBe('praxis@example.org');
    expect(mail.headers['reply-to']).toBe('erika@example.org');
    expect(mail.subject).toBe('Kontaktanfrage: Frage zur Impfung');
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain('Erika Mustermann');
      expect(part).toContain('erika@example.org');
      // Typed as +49 211 123456: shown as the practice dials it (src/lib/phone.ts).
      expect(part).toMatch(/Telefon(: |<\/th><td>)0211 123456/);
      expect(part).toContain('wann kann ich zur Grippeimpfung kommen?');
    }
    // The only row written is the rate-limit entry: an HMAC and a time.
    const rows = await t.db.select().from(contactAttempts);
    expect(rows).toHaveLength(1);
    expect(Object.keys(rows[0]!).sort()).toEqual(['attemptedAt', 'clientKey', 'id']);
    expect(rows[0]!.clientKey).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toMatch(/203\.0\.113|Erika|example\.org/);
  });

  it('writes a message a real mail parser reads as one From, one To and one Reply-To mailbox', async () => {
    vi.stubEnv('MAIL_FROM', 'Hausarztpraxis Düsseldorf <praxis@example.de>');
    const res = await post({ ...valid, name: 'Zoë Ünal', email: 'zoe@bücher.de', subject: 'Überweisung «Kardiologie»' });
    expect(res.status).toBe(200);
    const mails = await outbox();
    expect(mails).toHaveLength(1);
    for (const mail of mails) {
      expect(mail.addresses.from).toEqual([{ name: 'Hausarztpraxis Düsseldorf', address: 'praxis@example.de' }]);
      expect(mail.addresses.to).toEqual([{ name: '', address: 'praxis@example.org' }]);
      expect(mail.addresses['reply-to']).toHaveLength(1);
      expect(mail.raw).toMatch(/^Reply-To: zoe@xn--bcher-kva\.de\r$/m);
      expect(mail.subject).toBe('Kontaktanfrage: Überweisung «Kardiologie»');
      expect(/^[\x00-\x7f]*$/.test(mail.raw)).toBe(true);
    }
  });

  it('accepts a message without the optional phone and subject', async () => {
    const res = await post({ name: 'Jo', email: 'jo@example.org', message: 'Hallo', language: 'en', phone: '', subject: '' });
    expect(res.status).toBe(200);
    const [mail] = await outbox();
    expect(mail!.subject).toBe('Kontaktanfrage: ohne Betreff');
    expect(mail!.text).toContain('Sprache: Englisch');
  });

  it('escapes everything the sender typed in the HTML body', async () => {
    const res = await post({
      ...valid,
      name: '<script>alert(1)</script>',
      subject: 'a & "b"',
      message: '<img src=x onerror=alert(1)> & <b>bold</b>',
    });
    expect(res.status).toBe(200);
    const [mail] = await outbox();
    expect(mail!.html).not.toContain('<script>');
    expect(mail!.html).not.toContain('<img');
    expect(mail!.html).not.toContain('<b>bold');
    expect(mail!.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail!.html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(mail!.html).toContain('a &amp; &quot;b&quot;');
    // The plain-text part carries the text as typed.
    expect(mail!.text).toContain('<img src=x onerror=alert(1)>');
  });

  describe('validation (400, nothing sent)', () => {
    it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
      ['name missing', { name: undefined }, { name: ['contact.errors.nameRequired'] }],
      ['name blank', { name: '   ' }, { name: ['contact.errors.nameRequired'] }],
      ['name too long', { name: 'x'.repeat(101) }, { name: ['contact.errors.nameTooLong'] }],
      ['email missing', { email: '' }, { email: ['contact.errors.emailRequired'] }],
      ['email invalid', { email: 'not-an-email' }, { email: ['contact.errors.emailInvalid'] }],
      ['two addresses', { email: 'a@example.org, b@example.org' }, { email: ['contact.errors.emailInvalid'] }],
      ['email with a line break', { email: 'a@example.org\nBcc: x@example.org' }, { email: ['contact.errors.emailInvalid'] }],
      ['phone too short', { phone: '0211 123' }, { phone: ['contact.errors.phoneInvalid'] }],
      ['phone with letters', { phone: '0211 CALL NOW 1' }, { phone: ['contact.errors.phoneInvalid'] }],
      ['phone with too few digits', { phone: '+++ ((1)) --- 2' }, { phone: ['contact.errors.phoneInvalid'] }],
      ['subject with a line break', { subject: 'Hallo\r\nBcc: x@example.org' }, { subject: ['contact.errors.singleLine'] }],
      ['subject too long', { subject: 's'.repeat(201) }, { subject: ['contact.errors.subjectTooLong'] }],
      ['message missing', { message: '' }, { message: ['contact.errors.messageRequired'] }],
      ['message too long', { message: 'm'.repeat(5001) }, { message: ['contact.errors.messageTooLong'] }],
      ['language unknown', { language: 'fr' }, { language: ['contact.errors.language'] }],
      ['name not a string', { name: 42 }, { name: ['contact.errors.nameRequired'] }],
      // docs/architecture.md (Bad input)
      ['email with NUL', { email: 'evil\u0000@example.com' }, { email: ['contact.errors.emailInvalid'] }],
      ['email disguised as an encoded word', { email: '=?utf-8?B?PGV2aWxAeD4=?=@example.com' }, { email: ['contact.errors.emailInvalid'] }],
      ['email with raw non-ASCII local part', { email: 'jörg@example.com' }, { email: ['contact.errors.emailInvalid'] }],
      ['subject with NUL', { subject: 'Rezept\u0000' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['subject with VT', { subject: 'Rezept\u000bfrage' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['subject with FF', { subject: 'Rezept\u000cfrage' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['name with the RTL override', { name: 'Anna \u202eretsuM' }, { name: ['contact.errors.invalidCharacters'] }],
      ['name of zero-width characters only', { name: '\u200c\u200d\u200c' }, { name: ['contact.errors.nameRequired'] }],
      // format characters and noncharacters (docs/decisions/028-hidden-characters-addresses-invitations-origin.md)
      ['subject with the LRM mark', { subject: 'Rezept\u200e' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['subject with the Arabic letter mark', { subject: '\u061cRezept' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['subject with U+FEFF first', { subject: '\ufeffRezept' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['subject of only a bidi mark', { subject: '\u200f' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['subject with the noncharacter U+FFFF', { subject: 'Rezept\uffff' }, { subject: ['contact.errors.invalidCharacters'] }],
      ['name with the noncharacter U+FDD0', { name: 'Anna\ufdd0' }, { name: ['contact.errors.invalidCharacters'] }],
      ['message with an interlinear annotation', { message: 'Hallo \ufff9A\ufffaB\ufffb' }, { message: ['contact.errors.invalidCharacters'] }],
      ['message with NUL', { message: 'Hallo\u0000' }, { message: ['contact.errors.invalidCharacters'] }],
      ['message with a paragraph separator', { message: 'Hallo\u2029Welt' }, { message: ['contact.errors.invalidCharacters'] }],
    ])('%s', async (_, change, errors) => {
      const res = await post({ ...valid, ...change });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.json).toMatchObject({ type: 'invalid-input', status: 400, errors });
      expect(Object.keys(res.json.errors)).toEqual(Object.keys(errors));
      expect(await outbox()).toEqual([]);
    });

    it('names every missing required field at once', async () => {
      const res = await post({ language: 'de' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.json.errors).sort()).toEqual(['email', 'message', 'name']);
    });

    it('rejects a body that is not JSON', async () => {
      const res = await call(handler, '/api/contact', { method: 'POST', body: 'name=x', headers: { 'content-type': 'text/plain' } });
      expect(res.status).toBe(415);
      const bad = await call(handler, '/api/contact', { method: 'POST', body: '{"name":', headers: { 'content-type': 'application/json' } });
      expect(bad.status).toBe(400);
      expect(await outbox()).toEqual([]);
    });

    it('does not count invalid requests against the rate limit', async () => {
      const before = (await t.db.select().from(contactAttempts)).length;
      for (let i = 0; i < CONTACT_RATE_LIMIT.max + 1; i++) {
        expect((await post({ ...valid, email: 'x' }, '198.51.100.7')).status).toBe(400);
      }
      expect((await t.db.select().from(contactAttempts)).length).toBe(before);
      expect((await post(valid, '198.51.100.7')).status).toBe(200);
    });
  });

  it('answers a filled honeypot like a success and sends nothing', async () => {
    const before = (await t.db.select().from(contactAttempts)).length;
    const res = await post({ ...valid, website: 'http://spam.example' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true });
    expect(await outbox()).toEqual([]);
    expect((await t.db.select().from(contactAttempts)).length).toBe(before);
  });

  it(`allows ${CONTACT_RATE_LIMIT.max} messages per address within the window, then answers 429`, async () => {
    const ip = nextIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) {
      expect((await post(valid, ip)).status).toBe(200);
    }
    const limited = await post(valid, ip);
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ type: 'rate-limited', status: 429 });
    // When the oldest message leaves the window (at most the whole window from now).
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(CONTACT_RATE_LIMIT.windowMinutes * 60 - 60);
    expect(retryAfter).toBeLessThanOrEqual(CONTACT_RATE_LIMIT.windowMinutes * 60);
    expect(await outbox()).toHaveLength(CONTACT_RATE_LIMIT.max);
    // Another address is not affected.
    expect((await post(valid, nextIp())).status).toBe(200);
  });

  it.each([
    ['an IPv4 address and its IPv4-mapped IPv6 spelling', (i: number) => (i % 2 ? '198.51.100.177' : '::ffff:198.51.100.177'), '198.51.100.178'],
    ['addresses rotating inside one IPv6 /64', (i: number) => `2001:db8:77:1:${i.toString(16)}::1`, '2001:db8:77:2::1'],
  ])('keys the client canonically: %s count as one client', async (_what, spelling, otherClient) => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await post(valid, spelling(i))).status).toBe(200);
    expect((await post(valid, spelling(CONTACT_RATE_LIMIT.max))).status).toBe(429);
    expect((await post(valid, otherClient)).status).toBe(200);
  });

  it('counts parallel requests from one address exactly', async () => {
    const ip = nextIp();
    const results = await Promise.all(Array.from({ length: CONTACT_RATE_LIMIT.max + 3 }, () => post(valid, ip)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(CONTACT_RATE_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
  });

  it('forgets attempts older than the window', async () => {
    const ip = nextIp();
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await post(valid, ip)).status).toBe(200);
    expect((await post(valid, ip)).status).toBe(429);
    // Age every row past the window, as if an hour had gone by.
    const old = new Date(Date.now() - (CONTACT_RATE_LIMIT.windowMinutes + 1) * 60_000);
    await t.db.update(contactAttempts).set({ attemptedAt: old });
    expect((await post(valid, ip)).status).toBe(200);
    expect(await t.db.select().from(contactAttempts).then((rows) => rows.length)).toBe(1);
  });

  it('answers 502 {success:false, error} when the email cannot be sent, without logging the message', async () => {
    vi.stubEnv('PRACTICE_EMAIL', 'praxis@mail.invalid');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await post(valid);
    expect(res.status).toBe(502);
    expect(res.json).toEqual({ success: false, error: expect.any(String) });
    expect(await outbox()).toEqual([]);
    const logged = JSON.stringify(warn.mock.calls);
    expect(logged).not.toContain('Erika');
    expect(logged).not.toContain('erika@example.org');
    expect(logged).not.toContain('Grippeimpfung');
  });

  describe('as a plain HTML form post (no JavaScript)', () => {
    // The site the answer takes its contact page from (SITE_URL): a stand-in for the built pages.
    let site: http.Server;
    let siteUrl: string;
    beforeAll(async () => {
      site = http.createServer((req, res) => {
        const lang = req.url === '/en/kontakt' ? 'en' : req.url === '/kontakt' ? 'de' : null;
        res.writeHead(lang ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
        res.end(lang ? builtContactPage(lang) : 'not found');
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));
    beforeEach(() => vi.stubEnv('SITE_URL', siteUrl));

    const form = (fields: Record<string, string>, headers: Record<string, string> = {}, ip = nextIp()) =>
      call(handler, '/api/contact', {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: siteUrl, ...headers },
        ip,
      });

    it('sends the message and answers the site\'s contact page in the form\'s language, saying so', async () => {
      const res = await form({ ...valid, language: 'en', phone: '', subject: '', website: '' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.text).toContain('<html lang="en">');
      expect(res.text).toContain('<header id="site-nav">');
      expect(res.text).toContain('<title>Message sent – Family Practice Düsseldorf</title>');
      expect(res.text).toContain('>Message sent</h3>');
      // Sent: the form is empty again, nothing the visitor entered is echoed.
      expect(res.text).not.toContain('Erika');
      const mails = await outbox();
      expect(mails).toHaveLength(1);
      expect(mails[0]!.headers['reply-to']).toBe('erika@example.org');
      expect(mails[0]!.text).toContain('wann kann ich zur Grippeimpfung kommen?');
    });

    it('bad input: 400, the fields named in German, every typed value back in the form, nothing sent or counted', async () => {
      const counted = (await t.db.select().from(contactAttempts)).length;
      const res = await form({ name: ' ', email: 'nope', subject: 'Rückfrage', message: '', language: 'de' });
      expect(res.status).toBe(400);
      expect(res.text).toContain('<html lang="de">');
      expect(res.text).toContain('>Bitte prüfen Sie Ihre Angaben</h3>');
      expect(res.text).toContain('Name: Bitte geben Sie Ihren Namen ein.');
      expect(res.text).toContain('E-Mail: ');
      expect(res.text).toContain('Nachricht: ');
      expect(res.text).toMatch(/<input id="«R1»-email" type="email" name="email" value="nope" aria-invalid="true"/);
      expect(res.text).toContain('name="subject" value="Rückfrage"');
      expect(await outbox()).toEqual([]);
      expect(await t.db.select().from(contactAttempts)).toHaveLength(counted);
    });

    it('the site\'s page out of reach: a plain page with the outcome and the filled-in form', async () => {
      vi.stubEnv('SITE_URL', 'http://127.0.0.1:9');
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const res = await call(handler, '/api/contact', {
        method: 'POST',
        body: new URLSearchParams({ name: 'Erika', email: 'nope', message: 'Hallo', language: 'de' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://127.0.0.1:9' },
        ip: nextIp(),
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('>Bitte prüfen Sie Ihre Angaben</h1>');
      expect(res.text).toContain('name="email" value="nope"');
      expect(res.text).toContain('>Hallo</textarea>');
      expect(warn.mock.calls.join(' ')).not.toContain('nope');
    });

    it('shares the rate limit with the JSON requests: 429 page with the same Retry-After', async () => {
      const ip = nextIp();
      for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await post(valid, ip)).status).toBe(200);
      const res = await form(valid, {}, ip);
      expect(res.status).toBe(429);
      const json = await post(valid, ip);
      expect(json.status).toBe(429);
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(CONTACT_RATE_LIMIT.windowMinutes * 60 - 60);
      expect(Math.abs(retryAfter - Number(json.headers.get('retry-after')))).toBeLessThanOrEqual(1);
      expect(res.text).toContain('Von diesem Anschluss kamen zu viele Nachrichten');
      expect(await outbox()).toHaveLength(CONTACT_RATE_LIMIT.max);
    });

    it('a form posted from another site is refused (403 page), nothing sent', async () => {
      const res = await form({ ...valid, language: 'en' }, { origin: 'https://evil.example' });
      expect(res.status).toBe(403);
      expect(res.text).toContain('The message could not be accepted.');
      expect(res.text).not.toContain('Erika');
      expect(await outbox()).toEqual([]);
      const noOrigin = await form(valid, { origin: '', 'sec-fetch-site': 'cross-site' });
      expect(noOrigin.status).toBe(403);
    });

    it('the JSON request is refused from another origin too', async () => {
      const res = await call(handler, '/api/contact', { method: 'POST', body: valid, headers: { origin: 'https://evil.example' }, ip: nextIp() });
      expect(res.status).toBe(403);
      expect(await outbox()).toEqual([]);
    });

    it('a filled honeypot gets the same page and nothing is sent', async () => {
      const res = await form({ ...valid, website: 'http://spam.example' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('>Nachricht gesendet</h3>');
      expect(await outbox()).toEqual([]);
    });

    it('answers 502 page when the email cannot be sent', async () => {
      vi.stubEnv('PRACTICE_EMAIL', 'praxis@mail.invalid');
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const res = await form(valid);
      expect(res.status).toBe(502);
      expect(res.text).toContain('Nachricht nicht gesendet');
    });
  });
});
