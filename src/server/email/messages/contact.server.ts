/**
 * The email a contact message becomes: addressed to the practice, in German
 * (the practice's language) with the sender's chosen language noted. Every
 * value a visitor typed is escaped in the HTML body.
 */
import { displayPhone } from '../../../lib/phone';
import type { ContactMessage } from '../../../lib/contact-message';
import { escapeHtml } from '../../../lib/html';
import type { EmailMessage } from '../port.server';

export function buildContactEmail(message: ContactMessage, practiceEmail: string): EmailMessage {
  const subject = `Kontaktanfrage: ${message.subject ?? 'ohne Betreff'}`;
  const rows: Array<[string, string]> = [
    ['Name', message.name],
    ['E-Mail', message.email],
    ['Telefon', message.phone ? displayPhone(message.phone) : '–'],
    ['Betreff', message.subject ?? '–'],
    ['Sprache', message.language === 'en' ? 'Englisch' : 'Deutsch'],
  ];
  const text = [
    'Neue Nachricht über das Kontaktformular der Website.',
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    'Nachricht:',
    message.message,
    '',
    'Antworten Sie direkt auf diese E-Mail, um der absendenden Person zu antworten.',
  ].join('\n');
  const html = [
    '<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    '<p>Neue Nachricht über das Kontaktformular der Website.</p>',
    '<table cellpadding="4">',
    ...rows.map(([label, value]) => `<tr><th align="left">${label}</th><td>${escapeHtml(value)}</td></tr>`),
    '</table>',
    '<h2 style="font-size:1rem">Nachricht</h2>',
    `<p style="white-space:pre-wrap">${escapeHtml(message.message)}</p>`,
    '<p style="color:#555">Antworten Sie direkt auf diese E-Mail, um der absendenden Person zu antworten.</p>',
    '</body></html>',
  ].join('\n');
  return { to: practiceEmail, replyTo: message.email, subject, text, html };
}
