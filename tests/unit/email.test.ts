import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmailSender } from '../../src/server/email/email.server';
import type { EmailMessage } from '../../src/server/email/port.server';
import { EmailHeaderError } from '../../src/server/email/mailbox.server';
import { createOutboxSender, UndeliverableError } from '../../src/server/email/outbox.server';
import { createPostmarkSender } from '../../src/server/email/postmark.server';
import { readEnv } from '../../src/server/env.server';
import { parseEml } from '../helpers/eml';

const message: EmailMessage = {
  to: 'patient@example.org',
  replyTo: 'praxis@example.org',
  subject: 'Terminbestätigung – Check-up',
  html: '<p>Grüße &amp; bis bald</p>',
  text: 'Grüße & bis bald',
  attachments: [{ filename: 'termin.ics', contentType: 'text/calendar; charset=utf-8', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }],
};

describe('outbox sender', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
  });
  afterEach(async () => {
    // A console spy left by one test would carry its calls into the next one's.
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes one readable .eml per message and logs one line without the recipient', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const sender = createOutboxSender({ from: 'Praxis <praxis@localhost>', dir });
    const sent = await sender.send(message);
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const eml = await parseEml(await readFile(path.join(dir, files[0]!)));
    // The id it answers is the one the mail service's webhook would name (docs/decisions/035).
    expect(sent.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(eml.headers['x-message-id']).toBe(sent.id);
    expect(eml.headers.to).toBe('patient@example.org');
    expect(eml.headers['reply-to']).toBe('praxis@example.org');
    expect(eml.subject).toBe('Terminbestätigung – Check-up');
    expect(eml.text).toBe('Grüße & bis bald');
    expect(eml.html).toBe('<p>Grüße &amp; bis bald</p>');
    expect(eml.attachments).toEqual([{ filename: 'termin.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }]);
    expect(info).toHaveBeenCalledTimes(1);
    const line = String(info.mock.calls[0]![0]);
    expect(line).toContain(files[0]);
    expect(line).not.toContain('patient@example.org');
    info.mockRestore();
  });

  it.each([
    ['subject', { subject: 'Hallo\r\nBcc: victim@example.org' }],
    ['to', { to: 'a@example.org\nBcc: victim@example.org' }],
    ['replyTo', { replyTo: 'a@example.org\r\nX: y' }],
  ])('rejects a line break in the %s header and writes nothing', async (_field, patch) => {
    const sender = createOutboxSender({ from: 'Praxis <praxis@localhost>', dir });
    await expect(sender.send({ ...message, ...patch })).rejects.toBeInstanceOf(EmailHeaderError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes From as a mailbox: an encoded display name and a plain address a mail parser reads back', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const sender = createOutboxSender({ from: 'Hausarztpraxis Düsseldorf <praxis@example.de>', dir });
    await sender.send({ ...message, to: 'Jörg Müller <joerg@bücher.de>', replyTo: '"Dr. O\'Brien, Praxis" <team@example.de>' });
    const [file] = await readdir(dir);
    const eml = await parseEml(await readFile(path.join(dir, file!)));
    expect(eml.addresses.from).toEqual([{ name: 'Hausarztpraxis Düsseldorf', address: 'praxis@example.de' }]);
    // mailparser shows the domain decoded; on the wire it is punycode.
    expect(eml.addresses.to).toEqual([{ name: 'Jörg Müller', address: 'joerg@bücher.de' }]);
    expect(eml.raw).toMatch(/^To: =\?UTF-8\?Q\?[^\r\n]*\?= <joerg@xn--bcher-kva\.de>\r$/m);
    expect(eml.addresses['reply-to']).toEqual([{ name: "Dr. O'Brien, Praxis", address: 'team@example.de' }]);
    // The raw header keeps the address outside any encoded word, and the whole message is 7-bit.
    expect(eml.raw).toMatch(/^From: =\?UTF-8\?Q\?[^\r\n]*\?= <praxis@example\.de>\r$/m);
    expect(/^[\x00-\x7f]*$/.test(eml.raw)).toBe(true);
  });

  it.each([
    ['a NUL in Reply-To', { replyTo: 'evil\u0000@example.com' }],
    ['the encoded-word trick in Reply-To', { replyTo: '=?utf-8?B?PGV2aWxAeD4=?=@example.com' }],
    ['raw non-ASCII local part in Reply-To', { replyTo: 'jörg@example.com' }],
    ['two addresses in To', { to: 'a@example.org, b@example.org' }],
    ['a group in To', { to: 'list: a@example.org, b@example.org;' }],
    ['no address in To', { to: 'Just A Name' }],
    ['a C1 control in Subject', { subject: 'Hallo\u0085Welt' }],
  ])('refuses %s and writes nothing', async (_what, patch) => {
    const sender = createOutboxSender({ from: 'Praxis <praxis@localhost>', dir });
    await expect(sender.send({ ...message, ...patch })).rejects.toBeInstanceOf(EmailHeaderError);
    expect(await readdir(dir)).toEqual([]);
  });

  it('refuses recipients of the reserved .invalid domain, as a real server bounces them', async () => {
    const sender = createOutboxSender({ from: 'Praxis <praxis@localhost>', dir });
    await expect(sender.send({ ...message, to: 'nobody@mail.invalid' })).rejects.toBeInstanceOf(UndeliverableError);
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('postmark sender', () => {
  it('sends the message through the Postmark API with the server token', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ To: 'patient@example.org', SubmittedAt: 'x', MessageID: 'pm-123', ErrorCode: 0, Message: 'OK' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const sender = createPostmarkSender({ token: 'server-token', from: 'Praxis <praxis@example.org>', fetch: fetchMock as typeof fetch });
    expect(sender.kind).toBe('postmark');
    await expect(sender.send(message)).resolves.toEqual({ id: 'pm-123' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [input, init] = fetchMock.mock.calls[0]!;
    expect(String(input)).toBe('https://api.postmarkapp.com/email');
    expect(new Headers(init?.headers).get('x-postmark-server-token')).toBe('server-token');
    const body = JSON.parse(String(init?.body));
    expect(body).toMatchObject({
      From: '"Praxis" <praxis@example.org>',
      To: 'patient@example.org',
      ReplyTo: 'praxis@example.org',
      Subject: 'Terminbestätigung – Check-up',
      HtmlBody: '<p>Grüße &amp; bis bald</p>',
      TextBody: 'Grüße & bis bald',
      MessageStream: 'outbound',
    });
    expect(body.Attachments).toEqual([
      {
        Name: 'termin.ics',
        ContentType: 'text/calendar; charset=utf-8',
        Content: Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n').toString('base64'),
        ContentID: null,
      },
    ]);
  });

  it('formats each address field as one mailbox with an encoded display name', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ MessageID: 'pm-1', ErrorCode: 0, Message: 'OK' }), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    const sender = createPostmarkSender({ token: 't', from: 'Hausarztpraxis Düsseldorf <praxis@example.de>', fetch: fetchMock as typeof fetch });
    await sender.send({ ...message, to: 'joerg@bücher.de', replyTo: '"A \\"B\\"" <ab@example.org>' });
    const body = JSON.parse(String(fetchMock.mock.calls[0]![1]?.body));
    expect(body.From).toMatch(/^=\?UTF-8\?Q\?Hausarztpraxis_D=C3=BCsseldorf\?= <praxis@example\.de>$/);
    expect(body.To).toBe('joerg@xn--bcher-kva.de');
    expect(body.ReplyTo).toBe('"A \\"B\\"" <ab@example.org>');
  });

  it('rejects when Postmark refuses the message', async () => {
    const fetchMock = vi.fn(async () =>
      new Response(JSON.stringify({ ErrorCode: 300, Message: 'Invalid email request' }), { status: 422, headers: { 'content-type': 'application/json' } }),
    );
    const sender = createPostmarkSender({ token: 't', from: 'p@example.org', fetch: fetchMock as unknown as typeof fetch });
    await expect(sender.send(message)).rejects.toThrow(/Invalid email request/);
  });

  it('checks headers before calling Postmark', async () => {
    const fetchMock = vi.fn();
    const sender = createPostmarkSender({ token: 't', from: 'p@example.org', fetch: fetchMock as unknown as typeof fetch });
    await expect(sender.send({ ...message, subject: 'a\nb' })).rejects.toBeInstanceOf(EmailHeaderError);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('createEmailSender', () => {
  it('uses Postmark when POSTMARK_SERVER_TOKEN is set, the outbox otherwise (development only)', () => {
    const dev = { APP_ENV: 'development' };
    expect(createEmailSender(readEnv({ ...dev, POSTMARK_SERVER_TOKEN: 'abc' })).kind).toBe('postmark');
    expect(createEmailSender(readEnv({ ...dev })).kind).toBe('outbox');
    expect(createEmailSender(readEnv({ ...dev, POSTMARK_SERVER_TOKEN: '' })).kind).toBe('outbox');
  });

  it('never uses the outbox in production', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const env = { ...readEnv({ APP_ENV: 'development' }), isProduction: true };
    expect(() => createEmailSender(env)).toThrow(expect.objectContaining({ code: 'not-configured' }));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('POSTMARK_SERVER_TOKEN'));
    error.mockRestore();
  });
});

describe('readEnv', () => {
  const complete = {
    DATABASE_URL: 'postgres://x/y',
    JWT_SECRET: 'x'.repeat(32),
    POSTMARK_SERVER_TOKEN: 'token',
    MAIL_FROM: 'Praxis <praxis@example.org>',
    PRACTICE_EMAIL: 'praxis@example.org',
    SITE_URL: 'https://www.praxis.example',
  };

  it('is production unless APP_ENV=development', () => {
    expect(readEnv(complete).isProduction).toBe(true);
    expect(readEnv({ ...complete, APP_ENV: 'production' }).isProduction).toBe(true);
    expect(readEnv({ ...complete, APP_ENV: 'test' }).isProduction).toBe(true);
    expect(readEnv({ APP_ENV: 'development' }).isProduction).toBe(false);
  });

  it.each([
    ['DATABASE_URL', { DATABASE_URL: '' }],
    ['DATABASE_URL', { DATABASE_URL: 'pglite:memory' }],
    ['JWT_SECRET', { JWT_SECRET: undefined }],
    ['JWT_SECRET', { JWT_SECRET: 'short' }],
    ['POSTMARK_SERVER_TOKEN', { POSTMARK_SERVER_TOKEN: undefined }],
    ['MAIL_FROM', { MAIL_FROM: undefined }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: undefined }],
    ['PRACTICE_EMAIL', { PRACTICE_EMAIL: 'not-an-address' }],
    ['SITE_URL', { SITE_URL: undefined }],
  ])('in production, a missing or invalid %s is not-configured, logged by name and never by value', (name, change) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let thrown: unknown;
    try {
      readEnv({ ...complete, ...change } as NodeJS.ProcessEnv);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toMatchObject({ code: 'not-configured', status: 503 });
    expect(String((thrown as Error).message)).not.toContain(name);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error.mock.calls[0]![0]).toContain(name);
    expect(error.mock.calls[0]![0]).not.toMatch(/short|not-an-address|pglite/);
    error.mockRestore();
  });

  it('takes NETLIFY_DATABASE_URL when DATABASE_URL is unset', () => {
    const { DATABASE_URL: _, ...rest } = complete;
    expect(readEnv({ ...rest, NETLIFY_DATABASE_URL: 'postgres://neon/db' }).DATABASE_URL).toBe('postgres://neon/db');
    expect(readEnv({ ...complete, NETLIFY_DATABASE_URL: 'postgres://neon/db' }).DATABASE_URL).toBe('postgres://x/y');
  });

  it('names an invalid variable without echoing its value (development)', () => {
    expect(() => readEnv({ APP_ENV: 'development', PRACTICE_EMAIL: 'not-an-address' })).toThrow('Invalid environment variables: PRACTICE_EMAIL');
  });
});
