/**
 * The owners' documentation says what the code does: the scheduled job's
 * interval one way everywhere (its cron says every minute), and the pages
 * an owner needs are there (backups and restore, how long data is kept, the
 * German handbook for the practice).
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { config } from '../../netlify/functions/send-reminders';

const tracked = execFileSync('git', ['ls-files', '*.md', '*.ts', '*.tsx', '*.astro', '*.toml'], { encoding: 'utf8' }).split('\n').filter(Boolean);
const read = (file: string) => readFileSync(file, 'utf8');

describe('the scheduled job, stated one way', () => {
  it('runs every minute', () => {
    expect(config.schedule).toBe('* * * * *');
  });

  it('no doc or comment gives it another interval', () => {
    const job = /(send-reminders|scheduled\s+(job|function)|Netlify\s+runs\s+it|die\s+automatische\s+Aufgabe)[^.]{0,120}?\b(\d+|fifteen|five)\s*(minutes|Minuten|min\b)/i;
    const offenders = tracked.filter((file) => file !== 'tests/unit/owners-docs.test.ts' && job.test(read(file)));
    expect(offenders).toEqual([]);
  });
});

describe("the owners' pages", () => {
  const readme = read('README.md');

  it('README: backups and restore (Neon, the lost key, rotation) and how long data is kept', () => {
    expect(readme).toContain('## Backups and restore');
    expect(readme).toMatch(/restore window/);
    expect(readme).toContain('If `DATA_ENCRYPTION_KEY` is lost');
    expect(readme).toContain('**Rotating the key**');
    expect(readme).toContain('## How long data is kept');
    for (const what of ['booking rows', 'sealed contact', 'tombstones', 'waitlist entries', 'audit trail']) expect(readme).toContain(what);
  });

  it('a German handbook for the practice, linked from the README', () => {
    const handbook = read('docs/praxis-handbuch.md');
    expect(handbook).toMatch(/^# Praxis-Handbuch/);
    for (const section of ['## Was das System tut', '## Die tägliche Arbeit', '## Was tun, wenn …']) expect(handbook).toContain(section);
    expect(readme).toContain('docs/praxis-handbuch.md');
  });
});

describe('going live with email', () => {
  const readme = read('README.md');
  const deployStep = (n: number) => {
    const deploy = readme.slice(readme.indexOf('## Deploy to Netlify with Neon'));
    return deploy.slice(deploy.indexOf(`\n${n}. `), deploy.indexOf(`\n${n + 1}. `));
  };

  it('the deploy step that lists the variables names the mail webhook credentials', () => {
    const step = deployStep(4);
    expect(step).toContain("Netlify's environment variables");
    for (const name of ['POSTMARK_WEBHOOK_USER', 'POSTMARK_WEBHOOK_PASSWORD']) expect(step).toContain(name);
  });

  it('webhook credentials are made URL-safe (hex), never with base64, which breaks the user:password URL', () => {
    const credentialLines = [...readme.split('\n'), ...read('.env.example').split('\n')].filter((line) => /WEBHOOK|webhook|credential/.test(line));
    expect(credentialLines.join('\n')).toContain('openssl rand -hex');
    expect(credentialLines.filter((line) => /rand -base64 \d/.test(line))).toEqual([]);
    const delivery = readme.slice(readme.indexOf('## Email delivery'), readme.indexOf('## Patient requests'));
    expect(delivery).toContain('openssl rand -hex 24');
    expect(delivery).not.toMatch(/openssl rand -base64 \d/);
  });

  it("the sender domain's DNS set-up comes before the first email: DKIM and the custom Return-Path", () => {
    const delivery = readme.slice(readme.indexOf('## Email delivery'), readme.indexOf('## Patient requests'));
    expect(delivery).toContain('sender domain');
    expect(delivery).toMatch(/DKIM[^]*_domainkey/);
    expect(delivery).toMatch(/pm-bounces[^]*pm\.mtasv\.net/);
    expect(delivery.indexOf('sender domain')).toBeLessThan(delivery.indexOf('Setting up delivery events'));
  });
});

describe('the handbook says what the screens say', () => {
  const handbook = read('docs/praxis-handbuch.md');

  it('working "Anfragen": statuses, the required decline message, no medication in a message, printing, call-backs, settings', async () => {
    const { requestLabels } = await import('../../src/islands/admin/requests/request-labels');
    const section = handbook.slice(handbook.indexOf('### Anfragen bearbeiten'), handbook.indexOf('\n### ', handbook.indexOf('### Anfragen bearbeiten') + 4));
    for (const label of [requestLabels.takeOn, requestLabels.done, requestLabels.decline, requestLabels.copy, requestLabels.callbacksToday, requestLabels.settings.title, requestLabels.print.confidential]) {
      expect(section).toContain(label);
    }
    for (const status of Object.values(requestLabels.statuses)) expect(section).toContain(status);
    expect(section).toMatch(/Ablehnen\*\*: die Nachricht ist \*\*Pflicht/);
    expect(section).toMatch(/nie ein Medikament, eine\s+Diagnose/);
    expect(section).toContain('Drucken');
  });

  it('passkeys and signed-in devices, with the labels of "Mein Konto" and the sign-in page', async () => {
    const { labels } = await import('../../src/islands/admin/shared/labels');
    const account = handbook.slice(handbook.indexOf('## Ihr Konto'), handbook.indexOf('## Was tun, wenn'));
    for (const label of [labels.passkeys.add, labels.passkeys.remove, labels.devices.title, labels.devices.current, labels.devices.rename, labels.devices.end, labels.devices.endOthers, labels.users.endAll, labels.users.devices]) {
      expect(account).toContain(label);
    }
    expect(account).toContain('Mit Passkey anmelden');
  });
});
