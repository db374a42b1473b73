/**
 * The operations alerts' texts (docs/decisions/045-operations.md), in
 * German like the back office. They name what is wrong, since when, and
 * where to look ("Systemstatus", the handbook); never a patient, a count of
 * anyone's data, an address or an error text.
 */
import { escapeHtml } from '../../lib/html';
import type { AlertKind, AlertMessage } from '../../lib/operations-alerts';
import { practice } from '../../lib/practice';
import type { EmailMessage } from '../email/port.server';
import { cutToFit, SMS_MAX_CHARACTERS, toGsm7 } from '../sms/gsm.server';
import type { SmsMessage } from '../sms/port.server';

const WHAT: Record<AlertKind, { title: string; problem: string; todo: string }> = {
  job: {
    title: 'Die minütliche Aufgabe läuft nicht',
    problem:
      'Die Aufgabe, die jede Minute Erinnerungen, Wartelisten-Angebote und liegengebliebene E-Mails verschickt und alte Daten löscht, hat seit mehr als 5 Minuten nicht mehr gearbeitet.',
    todo: 'Bitte prüfen Sie bei Netlify unter „Logs & metrics → Functions → send-reminders“, ob die Aufgabe läuft und was sie meldet.',
  },
  outbox: {
    title: 'Nachrichten bleiben im Postausgang liegen',
    problem: 'Mindestens eine Nachricht an Patientinnen, Patienten oder die Praxis wartet länger als erlaubt auf den Versand.',
    todo: 'Bitte prüfen Sie unter „Systemstatus“ den letzten Fehler und beim E-Mail-Dienst (Postmark), ob das Konto Nachrichten annimmt.',
  },
  keys: {
    title: 'Der Datenschlüssel öffnet gespeicherte Daten nicht',
    problem:
      'Mit dem eingestellten Datenschlüssel (DATA_ENCRYPTION_KEY) lassen sich gespeicherte Patientendaten nicht öffnen. Buchungsbestätigungen, Erinnerungen und Absagen können dann nicht verschickt werden.',
    todo: 'Bitte prüfen Sie bei Netlify die Umgebungsvariable DATA_ENCRYPTION_KEY: der bisherige Schlüssel muss in der Liste bleiben, bis alle damit versiegelten Daten gelöscht sind.',
  },
  'practice-mail': {
    title: 'Die Praxis-Adresse nimmt keine E-Mails an',
    problem: 'Eine Nachricht an die E-Mail-Adresse der Praxis kam als unzustellbar zurück oder wurde als Spam gemeldet. Neue Buchungen und Anfragen erreichen die Praxis dann nicht per E-Mail.',
    todo: 'Bitte prüfen Sie das Postfach der Praxis (voll, gesperrt, Adresse geändert?) und beim E-Mail-Dienst (Postmark) die Sperrliste.',
  },
};

/** Made on first use: a process's first Intl object loads ICU's data, which no cold start should pay for (src/lib/berlin-time.ts). */
let whenFormat: Intl.DateTimeFormat | undefined;
const when = { format: (at: Date) => (whenFormat ??= new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' })).format(at) };

export interface AlertText {
  kind: AlertKind;
  message: AlertMessage;
  /** When the episode began. */
  since: Date;
  now: Date;
  siteUrl: string;
}

/** Subject and text of one alert, for any channel (an SMS takes the subject). */
export function alertSubject({ kind, message }: Pick<AlertText, 'kind' | 'message'>): string {
  const prefix = message === 'recovery' ? 'Wieder in Ordnung' : message === 'reminder' ? 'Störung besteht weiter' : 'Störung';
  return `${prefix}: ${WHAT[kind].title} – ${practice.name.de}`;
}

export function buildAlertEmail(to: string, input: AlertText): EmailMessage {
  const what = WHAT[input.kind];
  const statusUrl = new URL('/admin/system', input.siteUrl).toString();
  const lines =
    input.message === 'recovery'
      ? [`Die Störung „${what.title}“ (seit ${when.format(input.since)}) ist seit ${when.format(input.now)} behoben. Sie müssen nichts weiter tun.`]
      : [
          input.message === 'reminder' ? `Die Störung besteht seit ${when.format(input.since)} weiter.` : `Seit ${when.format(input.since)}:`,
          what.problem,
          what.todo,
          'Das Praxis-Handbuch erklärt unter „Wenn etwas nicht stimmt“, was zu tun ist. Solange die Störung besteht, kommt höchstens einmal pro Stunde eine Nachricht; wenn sie behoben ist, eine Entwarnung.',
        ];
  const text = ['Guten Tag,', '', ...lines.flatMap((l) => [l, '']), `Systemstatus: ${statusUrl}`, '', `Diese Nachricht schickt die Website der ${practice.name.de} automatisch.`].join('\n');
  const html = [
    '<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    '<p>Guten Tag,</p>',
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    `<p><a href="${escapeHtml(statusUrl)}">Systemstatus öffnen</a></p>`,
    `<p style="color:#555">Diese Nachricht schickt die Website der ${escapeHtml(practice.name.de)} automatisch.</p>`,
    '</body></html>',
  ].join('\n');
  return { to, subject: alertSubject(input), text, html };
}

/** The alert as an SMS to the owner's mobile: its subject and where to look, GSM-7, at most two parts. */
export function buildAlertSms(to: string, input: AlertText): SmsMessage {
  const statusUrl = new URL('/admin/system', input.siteUrl).toString();
  const since = input.message === 'recovery' ? '' : ` Seit ${when.format(input.since)}.`;
  const tail = ` Systemstatus: ${statusUrl}`;
  const text = toGsm7(`${alertSubject(input)}.${since}`);
  return { to, text: `${cutToFit(text, SMS_MAX_CHARACTERS - tail.length)}${tail}` };
}
