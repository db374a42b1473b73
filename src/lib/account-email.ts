/**
 * The two emails of staff accounts, in German like the back office: a
 * password-reset link (30 minutes) and an invitation from a colleague
 * (48 hours). Built in the same message shape as the booking and contact
 * emails; the only variable parts are addresses and a link we made. The
 * invitation greets the colleague, names the practice and who invited them
 * (docs/decisions/030): a bare "X hat Sie eingeladen" from an unknown
 * address reads like phishing.
 */
import type { EmailMessage } from '../server/email/email.server';
import { escapeHtml } from './html';
import { practice } from './practice';

export type PasswordLinkPurpose = 'reset' | 'invitation';

/** The page that sets a password from a link: /auth/reset?token=… */
export function passwordLinkUrl(siteUrl: string, token: string): string {
  const url = new URL('/auth/reset', siteUrl);
  url.searchParams.set('token', token);
  return url.toString();
}

export function buildPasswordLinkEmail(input: {
  purpose: PasswordLinkPurpose;
  to: string;
  link: string;
  /** Invitations: the colleague who sent it. */
  invitedBy?: string;
}): EmailMessage {
  const reset = input.purpose === 'reset';
  const subject = reset ? 'Passwort zurücksetzen – Praxis-Verwaltung' : 'Einladung zur Praxis-Verwaltung';
  const practiceName = practice.name.de;
  const greeting = 'Guten Tag,';
  const intro = reset
    ? `Sie (oder jemand anderes) haben für dieses Konto der Praxis-Verwaltung (${practiceName}) ein neues Passwort angefordert.`
    : `${input.invitedBy ?? 'Eine Kollegin oder ein Kollege'} hat Sie zur Praxis-Verwaltung der Website „${practiceName}“ eingeladen: Termine, Sperrzeiten, Inventar und Seiteninhalte. Ihr Benutzername ist ${input.to}.`;
  const action = reset ? 'Neues Passwort festlegen' : 'Passwort festlegen und Einladung annehmen';
  const validity = reset
    ? 'Der Link ist 30 Minuten gültig und kann nur einmal verwendet werden.'
    : 'Der Link ist 48 Stunden gültig und kann nur einmal verwendet werden.';
  const ignore = reset
    ? 'Wenn Sie kein neues Passwort angefordert haben, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.'
    : 'Wenn Sie diese Einladung nicht erwartet haben, ignorieren Sie diese E-Mail.';
  const regards = ['Viele Grüße', practiceName];
  const text = [greeting, '', intro, '', `${action}:`, input.link, '', validity, ignore, '', ...regards].join('\n');
  const html = [
    '<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(input.link)}">${escapeHtml(action)}</a></p>`,
    `<p>${escapeHtml(validity)}</p>`,
    `<p style="color:#555">${escapeHtml(ignore)}</p>`,
    `<p>${regards.map(escapeHtml).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject, text, html };
}
