/**
 * A hint for a mistyped common email domain ("erika@gmial.com" → "Meinten
 * Sie erika@gmail.com?"), with the mailcheck-style spell checker
 * @zootools/email-spell-checker, limited to the providers patients here
 * use. A hint, never a block: the form takes any valid address
 * (docs/decisions/035).
 */
import { run } from '@zootools/email-spell-checker';

/** The providers a suggestion may lead to: the common ones in Germany and the big international ones. */
export const HINT_DOMAINS = [
  'gmail.com',
  'googlemail.com',
  'gmx.de',
  'gmx.net',
  'gmx.at',
  'gmx.ch',
  'web.de',
  't-online.de',
  'outlook.com',
  'outlook.de',
  'hotmail.com',
  'hotmail.de',
  'live.de',
  'icloud.com',
  'me.com',
  'yahoo.com',
  'yahoo.de',
];
const SECOND_LEVEL = ['gmail', 'googlemail', 'gmx', 'web', 't-online', 'outlook', 'hotmail', 'live', 'icloud', 'yahoo'];
const TOP_LEVEL = ['com', 'de', 'net', 'at', 'ch', 'org', 'eu'];

/** The suggested whole address, or null when the address looks right (or is no address at all). */
export function emailDomainHint(email: string): string | null {
  const value = email.trim();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return null;
  const suggestion = run({ email: value, domains: HINT_DOMAINS, secondLevelDomains: SECOND_LEVEL, topLevelDomains: TOP_LEVEL });
  // Only a listed provider: "mail.invalid" is no typo of "gmail.invalid".
  if (!suggestion || !HINT_DOMAINS.includes(suggestion.domain.toLowerCase())) return null;
  if (suggestion.full.toLowerCase() === value.toLowerCase()) return null;
  return suggestion.full;
}
