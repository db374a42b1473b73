/**
 * The emails of staff accounts, in German like the back office: a
 * password-reset link (30 minutes), an invitation from a colleague
 * (48 hours) and the notice that an admin reset one's second factor. Built in the same message shape as the booking and contact
 * emails; the only variable parts are addresses and a link we made. The
 * invitation greets the colleague, names the practice and who invited them
 * (docs/decisions/030): a bare "X hat Sie eingeladen" from an unknown
 * address reads like phishing.
 */
import { escapeHtml } from '../../../lib/html';
import { practice } from '../../../lib/practice';
import type { EmailMessage } from '../port.server';

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

/** The colleague's notice that an admin reset their second factor (docs/decisions/027), in German like the back office. */
export function buildSecondFactorResetEmail(input: { to: string; resetBy: string; siteUrl: string }): EmailMessage {
  const intro = `${input.resetBy} hat die Zwei-Faktor-Anmeldung Ihres Kontos der Praxis-Verwaltung (${input.to}) zurückgesetzt. Ihre Sitzungen wurden beendet.`;
  const next = 'Bei der nächsten Anmeldung genügt Ihr Passwort; richten Sie die Zwei-Faktor-Anmeldung danach unter „Mein Konto“ neu ein.';
  const link = new URL('/admin/konto', input.siteUrl).toString();
  const warn = 'Wenn Sie das nicht veranlasst haben, sprechen Sie bitte sofort mit Ihren Kolleginnen und Kollegen und ändern Sie Ihr Passwort.';
  const text = [intro, '', next, link, '', warn].join('\n');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const html = [
    '<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    `<p>${esc(intro)}</p>`,
    `<p>${esc(next)} <a href="${esc(link)}">Mein Konto</a></p>`,
    `<p style="color:#555">${esc(warn)}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject: 'Zwei-Faktor-Anmeldung zurückgesetzt – Praxis-Verwaltung', text, html };
}

/**
 * The owner's alert that their password is being used with wrong codes
 * (docs/decisions/037-passkeys-sessions-guessing.md): whoever types them
 * knows the password, so the owner should change it. Sent at the 5th wrong
 * code of a day, at most once a day; `closed` when the code step is
 * already closed (30 wrong codes).
 */
export function buildWrongCodesAlertEmail(input: { to: string; siteUrl: string; wrongCodes: number; closed: boolean }): EmailMessage {
  const subject = 'Ihr Passwort wurde mit falschen Codes verwendet';
  const practiceName = practice.name.de;
  const intro = `für Ihr Konto der Praxis-Verwaltung (${input.to}) wurde in den letzten 24 Stunden ${input.wrongCodes}-mal Ihr richtiges Passwort eingegeben, danach aber ein falscher Code der Zwei-Faktor-Anmeldung.`;
  const meaning =
    'Wenn Sie das nicht selbst waren, kennt jemand anderes Ihr Passwort. Ihr zweiter Faktor hat die Anmeldung bisher verhindert. Bitte ändern Sie Ihr Passwort sofort: unter „Mein Konto“ oder über „Passwort vergessen“ auf der Anmeldeseite. Ein neues Passwort über den Link beendet alle Sitzungen Ihres Kontos.';
  const closed = input.closed
    ? 'Nach 30 falschen Codes an einem Tag ist die Code-Eingabe für Ihr Konto gesperrt, bis Sie Ihr Passwort über „Passwort vergessen“ neu festlegen. Mit einem Wiederherstellungscode oder einem Passkey können Sie sich weiter anmelden.'
    : 'Nach 30 falschen Codes an einem Tag wird die Code-Eingabe für Ihr Konto gesperrt, bis Sie Ihr Passwort über „Passwort vergessen“ neu festlegen.';
  const link = new URL('/auth/forgot', input.siteUrl).toString();
  const regards = ['Viele Grüße', practiceName];
  const text = ['Guten Tag,', '', intro, '', meaning, '', closed, '', `Passwort vergessen: ${link}`, '', ...regards].join('\n');
  const html = [
    '<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    '<p>Guten Tag,</p>',
    `<p>${escapeHtml(intro)}</p>`,
    `<p><strong>${escapeHtml(meaning)}</strong></p>`,
    `<p>${escapeHtml(closed)}</p>`,
    `<p><a href="${escapeHtml(link)}">Passwort vergessen</a></p>`,
    `<p>${regards.map(escapeHtml).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject, text, html };
}

/** A change to how an account signs in, or a recovery code spent (docs/decisions/041-staff-messages-devices-printouts.md). */
export type SecurityEvent = 'totp-added' | 'totp-removed' | 'passkey-added' | 'passkey-removed' | 'recovery-code-used';

const SECURITY_SUBJECTS: Record<SecurityEvent, string> = {
  'totp-added': 'Zwei-Faktor-Anmeldung eingerichtet',
  'totp-removed': 'Zwei-Faktor-Anmeldung entfernt',
  'passkey-added': 'Passkey hinzugefügt',
  'passkey-removed': 'Passkey entfernt',
  'recovery-code-used': 'Wiederherstellungscode verwendet',
};

let securityStampFormat: Intl.DateTimeFormat | undefined;
const securityStamp = () => (securityStampFormat ??= new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'full', timeStyle: 'short' }));

/**
 * The owner's notice that their sign-in changed: what (a second factor or
 * a passkey added or removed, a recovery code used), for which account,
 * when (Berlin time), and what to do if it was not them. No secret: never
 * a code, a key or a link that signs in.
 */
export function buildSecurityNoticeEmail(input: { to: string; event: SecurityEvent; at: Date; passkeyName?: string; codesLeft?: number }): EmailMessage {
  const practiceName = practice.name.de;
  const when = `${securityStamp().format(input.at)} Uhr`;
  const what: Record<SecurityEvent, string> = {
    'totp-added': 'wurde die Zwei-Faktor-Anmeldung mit einer Authenticator-App eingerichtet.',
    'totp-removed': 'wurde die Zwei-Faktor-Anmeldung mit der Authenticator-App entfernt (mit einem Wiederherstellungscode).',
    'passkey-added': `wurde ein Passkey hinzugefügt${input.passkeyName ? ` („${input.passkeyName}“)` : ''}.`,
    'passkey-removed': `wurde ein Passkey entfernt${input.passkeyName ? ` („${input.passkeyName}“)` : ''}.`,
    'recovery-code-used': 'wurde ein Wiederherstellungscode verwendet.',
  };
  const intro = `für Ihr Konto der Praxis-Verwaltung (${input.to}) ${what[input.event]}`;
  const time = `Zeitpunkt: ${when}.`;
  const left =
    input.event === 'recovery-code-used' && input.codesLeft !== undefined
      ? `Jeder Code gilt nur einmal; Ihnen bleiben noch ${input.codesLeft}. Neue Codes erhalten Sie, wenn Sie die Zwei-Faktor-Anmeldung unter „Mein Konto“ neu einrichten.`
      : null;
  const warn =
    'Wenn Sie das nicht selbst waren, sagen Sie es bitte sofort einer Administratorin oder einem Administrator der Praxis und ändern Sie Ihr Passwort. Unter „Mein Konto“ › „Angemeldete Geräte“ können Sie fremde Sitzungen beenden.';
  const regards = ['Viele Grüße', practiceName];
  const text = ['Guten Tag,', '', intro, time, ...(left ? ['', left] : []), '', warn, '', ...regards].join('\n');
  const html = [
    '<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;line-height:1.5">',
    '<p>Guten Tag,</p>',
    `<p>${escapeHtml(intro)}<br>${escapeHtml(time)}</p>`,
    ...(left ? [`<p>${escapeHtml(left)}</p>`] : []),
    `<p><strong>${escapeHtml(warn)}</strong></p>`,
    `<p>${regards.map(escapeHtml).join('<br>')}</p>`,
    '</body></html>',
  ].join('\n');
  return { to: input.to, subject: `${SECURITY_SUBJECTS[input.event]} – Praxis-Verwaltung`, text, html };
}
