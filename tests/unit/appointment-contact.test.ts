import { execFile } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCipheriv, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../src/lib/errors';
import { buildReminderEmail } from '../../src/server/email/messages/reminder.server';
import {
  generateKey,
  KEY_FILE_NAME,
  keyIdOf,
  localKeyRing,
  parseKeyRing,
  dataKeyRing,
} from '../../src/server/appointment-contact/keys.server';
import { open, seal, SealError, type ContactSecret } from '../../src/server/appointment-contact/seal.server';
import { reminderSendAt } from '../../src/lib/reminder-time';
import { startReminderSchedule } from '../../src/server/appointment-contact/job.server';

const secret: ContactSecret = {
  email: 'erika@example.org',
  firstName: 'Erika',
  lastName: 'Mustermann',
  language: 'de',
  token: 'A'.repeat(43),
  birthDate: '1980-04-02',
  phone: '0211 1234567',
};
const BOOKING = '6f1c1a52-6c1d-4a57-9d0e-1f1a2b3c4d5e';

describe('key ring (DATA_ENCRYPTION_KEY)', () => {
  it('reads hex and base64 keys; the first seals, every one has an id from its hash', () => {
    const a = randomBytes(32);
    const b = randomBytes(32);
    const ring = parseKeyRing(`${a.toString('hex')}, ${b.toString('base64')}`);
    expect(ring.current.key.equals(a)).toBe(true);
    expect(ring.current.id).toBe(keyIdOf(a));
    expect(ring.current.id).toMatch(/^[0-9a-f]{16}$/);
    expect([...ring.byId.keys()]).toEqual([keyIdOf(a), keyIdOf(b)]);
    expect(parseKeyRing(generateKey()).current.key).toHaveLength(32);
  });

  it.each([
    ['too short', 'abcd'],
    ['31 bytes', randomBytes(31).toString('hex')],
    ['empty list', ' , '],
  ])('refuses a key that is %s, without quoting it', (_label, value) => {
    expect(() => parseKeyRing(value)).toThrow(/DATA_ENCRYPTION_KEY/);
    try {
      parseKeyRing(value);
    } catch (error) {
      if (value.trim().replace(/,/g, '')) expect((error as Error).message).not.toContain(value);
    }
  });

  describe('per environment', () => {
    /** Every variable production requires (env.server.ts), so only the reminder key decides. */
    const PRODUCTION = {
      APP_ENV: 'production',
      DATABASE_URL: 'postgres://db.example/x',
      JWT_SECRET: 'x'.repeat(32),
      POSTMARK_SERVER_TOKEN: 'token',
      MAIL_FROM: 'Praxis <praxis@example.org>',
      PRACTICE_EMAIL: 'praxis@example.org',
      SITE_URL: 'https://praxis.example',
    };
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'keys-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('locally creates one key file (mode 0600) under DATA_DIR and reuses it', async () => {
      const env = { APP_ENV: 'development', DATA_DIR: dir } as NodeJS.ProcessEnv;
      const first = await dataKeyRing(env);
      const file = path.join(dir, KEY_FILE_NAME);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const second = await dataKeyRing(env);
      expect(second.current.id).toBe(first.current.id);
      expect(parseKeyRing(await readFile(file, 'utf8')).current.id).toBe(first.current.id);
    });

    it('reads an existing key file and drafts nothing beside it, however many requests ask', async () => {
      const key = generateKey();
      await writeFile(path.join(dir, KEY_FILE_NAME), `${key}\n`, { mode: 0o600 });
      const seen: string[] = [];
      const watcher = watch(dir, (_event, name) => seen.push(String(name)));
      try {
        const rings = await Promise.all(Array.from({ length: 50 }, () => localKeyRing(dir)));
        for (let i = 0; i < 50; i++) rings.push(await localKeyRing(dir));
        expect(new Set(rings.map((r) => r.current.id))).toEqual(new Set([parseKeyRing(key).current.id]));
        // A change would have reached the watcher before this file does.
        await writeFile(path.join(dir, 'marker'), '');
        await vi.waitFor(() => expect(seen).toContain('marker'));
      } finally {
        watcher.close();
      }
      expect(seen.filter((name) => name !== 'marker')).toEqual([]);
      expect((await readdir(dir)).sort()).toEqual([KEY_FILE_NAME, 'marker']);
    });

    it('two processes starting at once create one key file and agree on it, leaving no drafts', async () => {
      const script = `import { localKeyRing } from './src/server/appointment-contact/keys.server.ts';
        const rings = await Promise.all([localKeyRing(process.argv[1]), localKeyRing(process.argv[1])]);
        console.log(rings.map((r) => r.current.id).join(' '));`;
      const run = () =>
        new Promise<string>((resolve, reject) =>
          execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], { cwd: process.cwd() }, (error, stdout) =>
            error ? reject(error) : resolve(stdout.trim()),
          ),
        );
      const ids = (await Promise.all([run(), run()])).join(' ').split(' ');
      expect(ids).toHaveLength(4);
      expect(new Set(ids).size).toBe(1);
      expect(await readdir(dir)).toEqual([KEY_FILE_NAME]);
      expect(parseKeyRing(await readFile(path.join(dir, KEY_FILE_NAME), 'utf8')).current.id).toBe(ids[0]);
    });

    it('prefers DATA_ENCRYPTION_KEY over the key file', async () => {
      const key = generateKey();
      const ring = await dataKeyRing({ APP_ENV: 'development', DATA_DIR: dir, DATA_ENCRYPTION_KEY: key } as NodeJS.ProcessEnv);
      expect(ring.current.id).toBe(parseKeyRing(key).current.id);
    });

    it.each([
      ['unset', undefined],
      ['malformed', 'not-a-key'],
    ])('in production, a key that is %s is 503 not-configured and no key file is made', async (_label, key) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const env = {
        ...PRODUCTION,
        DATA_DIR: dir,
        ...(key ? { DATA_ENCRYPTION_KEY: key } : {}),
      } as NodeJS.ProcessEnv;
      const error = await dataKeyRing(env).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('not-configured');
      expect((error as AppError).status).toBe(503);
      await expect(stat(path.join(dir, KEY_FILE_NAME))).rejects.toThrow();
      // One line naming the variable, never its value.
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringContaining('DATA_ENCRYPTION_KEY')]);
      if (key) expect(JSON.stringify(log.mock.calls)).not.toContain(key);
      log.mockRestore();
    });

    it('in production, a valid DATA_ENCRYPTION_KEY is used', async () => {
      const key = generateKey();
      const env = { ...PRODUCTION, DATA_ENCRYPTION_KEY: key };
      expect((await dataKeyRing(env as NodeJS.ProcessEnv)).current.id).toBe(parseKeyRing(key).current.id);
    });
  });
});

describe('sealing (AES-256-GCM)', () => {
  const ring = parseKeyRing(generateKey());

  it('opens what it sealed, and the sealed text shows nothing of the secret', () => {
    const sealed = seal(secret, BOOKING, ring);
    expect(sealed.keyId).toBe(ring.current.id);
    expect(sealed.sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    for (const value of ['erika', 'Erika', 'Mustermann', secret.token]) expect(sealed.sealed).not.toContain(value);
    expect(open(sealed, BOOKING, ring)).toEqual(secret);
  });

  it('uses a fresh IV each time', () => {
    expect(seal(secret, BOOKING, ring).sealed).not.toBe(seal(secret, BOOKING, ring).sealed);
  });

  it('refuses a changed byte, another booking id, or an unknown key id', () => {
    const sealed = seal(secret, BOOKING, ring);
    const raw = Buffer.from(sealed.sealed, 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(() => open({ ...sealed, sealed: raw.toString('base64url') }, BOOKING, ring)).toThrow(SealError);
    expect(() => open(sealed, '00000000-0000-4000-8000-000000000000', ring)).toThrow(SealError);
    expect(() => open({ ...sealed, keyId: '0123456789abcdef' }, BOOKING, ring)).toThrow(SealError);
    expect(() => open(sealed, BOOKING, parseKeyRing(generateKey()))).toThrow(SealError);
  });

  it('rotation: with a new key put first, values sealed by the old key still open and new ones use the new key', () => {
    const oldKey = generateKey();
    const newKey = generateKey();
    const before = parseKeyRing(oldKey);
    const sealedOld = seal(secret, BOOKING, before);
    const after = parseKeyRing(`${newKey},${oldKey}`);
    expect(open(sealedOld, BOOKING, after)).toEqual(secret);
    const sealedNew = seal(secret, BOOKING, after);
    expect(sealedNew.keyId).toBe(parseKeyRing(newKey).current.id);
    expect(sealedNew.keyId).not.toBe(sealedOld.keyId);
    // Once the old key is removed, its values no longer open (their appointments must have ended by then).
    expect(() => open(sealedOld, BOOKING, parseKeyRing(newKey))).toThrow(SealError);
  });
});

describe('an earlier reminder migrated into a contact', () => {
  it('opens without a last name (reminders kept none)', () => {
    const ring = parseKeyRing(generateKey());
    // The earlier reminders' sealed form (docs/decisions/009): { e, f, l, t } (no n), sealed the same way.
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
    cipher.setAAD(Buffer.from(BOOKING, 'utf8'));
    const body = Buffer.concat([cipher.update(JSON.stringify({ e: 'erika@example.org', f: 'Erika', l: 'en', t: secret.token })), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    expect(open({ keyId: ring.current.id, sealed }, BOOKING, ring)).toEqual({ ...secret, lastName: '', language: 'en', birthDate: '', phone: '' });
  });
});

describe('reminderSendAt (24 hours before, Berlin wall clock)', () => {
  it.each([
    ['an ordinary winter day', '2030-01-08', '09:00', '2030-01-07T08:00:00Z'],
    ['an ordinary summer day', '2030-07-09', '09:00', '2030-07-08T07:00:00Z'],
    ['spring forward in between: same wall time the day before (23 h)', '2030-03-31', '09:00', '2030-03-30T08:00:00Z'],
    ['fall back in between: same wall time the day before (25 h)', '2030-10-27', '09:00', '2030-10-26T07:00:00Z'],
    ['a year end', '2031-01-01', '08:20', '2030-12-31T07:20:00Z'],
    ['a wall time skipped the day before: exactly 24 h', '2030-04-01', '02:30', '2030-03-31T00:30:00Z'],
  ])('%s', (_label, date, time, expected) => {
    expect(reminderSendAt(date, time).toISOString()).toBe(new Date(expected).toISOString());
  });
});

describe('reminder email', () => {
  const input = {
    to: 'erika@example.org',
    firstName: 'Erika <b>',
    token: 'T'.repeat(43),
    type: { name: 'Check-up', nameEn: 'Health check' },
    date: '2030-01-08',
    time: '09:00',
  };

  it('German: type, long date, time, address, what to bring, cancel and rebook links', () => {
    const mail = buildReminderEmail({ ...input, language: 'de' }, 'https://praxis.example');
    expect(mail.to).toBe('erika@example.org');
    expect(mail.subject).toBe('Erinnerung: Check-up am 08.01.2030 um 09:00');
    for (const part of [
      'Guten Tag Erika <b>,',
      'Terminart: Check-up',
      'Dienstag, 8. Januar 2030',
      '09:00 Uhr',
      'Königsallee 1, 40212 Düsseldorf',
      'Versichertenkarte',
      `https://praxis.example/termin/absagen?token=${input.token}`,
      'https://praxis.example/termin',
    ]) {
      expect(mail.text).toContain(part);
    }
    expect(mail.html).toContain('Erika &lt;b&gt;');
    expect(mail.html).not.toContain('Erika <b>');
    expect(mail.html).toContain(`href="https://praxis.example/termin/absagen?token=${input.token}"`);
  });

  it('English: the English type name, date and links', () => {
    const mail = buildReminderEmail({ ...input, language: 'en' }, 'https://praxis.example');
    expect(mail.subject).toBe('Reminder: Health check on Tue 8 Jan 2030 at 09:00');
    for (const part of [
      'Dear Erika <b>,',
      'Type: Health check',
      'Tuesday, 8 January 2030',
      'health insurance card',
      `https://praxis.example/en/termin/absagen?token=${input.token}`,
      'https://praxis.example/en/termin',
    ]) {
      expect(mail.text).toContain(part);
    }
    // An English email carries the practice's English sender name; a type without a price shows none.
    expect(mail.fromName).toBe('Family Practice Düsseldorf');
    expect(mail.text).not.toContain('Price');
  });

  it('a self-pay type shows its price, in the email\'s language; a German email keeps MAIL_FROM\'s sender name', () => {
    const selfPay = { ...input, type: { name: 'Reiseberatung', nameEn: 'Travel advice', priceCents: 3500 } };
    const de = buildReminderEmail({ ...selfPay, language: 'de' }, 'https://praxis.example');
    expect(de.text).toContain('Preis (Selbstzahlerleistung): 35,00');
    expect(de.fromName).toBeUndefined();
    const en = buildReminderEmail({ ...selfPay, language: 'en' }, 'https://praxis.example');
    expect(en.text).toContain('Price (self-pay service): €35.00');
    expect(en.html).toContain('€35.00');
  });
});

describe('startReminderSchedule (local server)', () => {
  afterEach(() => vi.useRealTimers());

  it('runs the job every interval, never two at once, and stop() waits for the run in progress', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    let finish!: () => void;
    const job = () => {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      return new Promise<void>((resolve) => {
        finish = () => {
          active--;
          resolve();
        };
      });
    };
    const schedule = startReminderSchedule(60_000, job);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000); // still running: skipped
    expect(runs).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toBe(2);
    let stopped = false;
    const stopping = schedule.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(600_000);
    expect(runs).toBe(2);
    expect(maxActive).toBe(1);
  });
});

describe('privacy policy and step 3 describe the appointment contact: what, who sees it, until the end of the day', () => {
  it.each([
    ['de', 'Erinnerung per E-Mail 24 Stunden vorher', /Ihren Vor- und Nachnamen, Ihre Telefonnummer, Ihr Geburtsdatum und Ihre E-Mail-Adresse \(soweit angegeben\), die Sprache der Buchung/, /\*\*Wir löschen sie am Ende des Termintages\*\* \(um Mitternacht, deutsche Zeit\) oder, wenn der Termin vorher abgesagt wird, sobald die Nachricht über die Absage versandt ist/, /Einwilligung \(Art\. 6 Abs\. 1 lit\. a/],
    ['en', 'Email reminder 24 hours before', /your first and last name, your phone number, your date of birth and your email address \(where given\), the language of the booking/, /\*\*We delete them at the end of the appointment's day\*\* \(midnight, German time\) or, if the appointment is cancelled before, as soon as the email about the cancellation is sent/, /consent \(Art\. 6\(1\)\(a\)/],
  ] as const)('%s: what is kept, sealed, why, until when; the reminder on consent', async (lang, box, kept, deletion, basis) => {
    const text = (await readFile(path.join('src/content', lang, 'datenschutz.md'), 'utf8')).replace(/\s+/g, ' ');
    const dictionary = JSON.parse(await readFile(path.join('src/i18n', `${lang}.json`), 'utf8')) as Record<string, string>;
    expect(dictionary['bookingForm.reminder']).toBe(box);
    expect(text).toContain(box);
    expect(text).toContain('AES-256-GCM');
    expect(text).toMatch(kept);
    expect(text).toMatch(deletion);
    expect(text).toMatch(basis);
    // Who sees it, and the practice's email without it.
    expect(text).toMatch(lang === 'de' ? /Nur angemeldete Mitarbeitende der Praxis im Verwaltungsbereich/ : /Only signed-in practice staff in the admin area/);
    expect(text).toMatch(lang === 'de' ? /E-Mail \*\*ohne Ihre persönlichen Angaben\*\*/ : /email about every booking \*\*without your personal details\*\*/);
    expect(text).toMatch(lang === 'de' ? /ob Sie erschienen sind/ : /whether you came/);
    // Step 3's one sentence: what, who sees it, until when.
    expect(dictionary['bookingForm.contactKept']).toMatch(lang === 'de' ? /Geburtsdatum, Ihre Telefonnummer und E-Mail-Adresse verschlüsselt.*Praxisteam.*am Ende Ihres Termintags gelöscht/ : /date of birth, phone number and email address encrypted.*practice team.*deleted at the end of the day of your appointment/);
  });
});
