/**
 * What a new password must be (docs/architecture.md, Security):
 * at least 12 characters (the shared schemas, src/lib/account-schemas.ts)
 * and not among common passwords. The list is zxcvbn-ts's maintained one
 * (@zxcvbn-ts/language-common, ~49,000 passwords from public breach
 * corpora, lower-case), loaded on the first check only, and only by the
 * functions that set passwords (setup, reset and invitation links, own
 * change, staff-added colleague): no other function bundles or loads it.
 * Existing passwords are never checked against it; they keep working.
 */
import { AppError } from '../../lib/errors';

let common: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common/dist/passwords.json.mjs').then((list) => new Set(list.default));
  return common;
}

/** Whether a password is on the list, whatever its letter case (the list is lower-case). */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize('NFKC').toLowerCase());
}

/** 400 naming `field` (`errors.passwordCommon`) when the new password is a common one. */
export async function assertUncommonPassword(password: string, field: string): Promise<void> {
  if (await isCommonPassword(password)) {
    throw new AppError('invalid-input', 'Dieses Passwort ist zu verbreitet.', { [field]: ['errors.passwordCommon'] });
  }
}
