/**
 * GET /api/auth/reset?token=…: which account a usable reset or invitation
 * link is for, so the page can name it ("the invitation page names the
 * account it is for", docs/decisions/020) and a password manager can file
 * the new password under it. Whoever holds the link may set that account's
 * password, so naming its email reveals nothing more; an unknown, used or
 * expired link is 404 like on POST.
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { passwordTokens, users } from '../../../db/schema';
import type { PasswordLinkPurpose } from '../email/messages/account.server';
import { passwordTokenSchema } from '../../lib/account-schemas';
import { AppError } from '../../lib/errors';
import { sha256Hex } from './tokens.server';

export interface LinkAccountDto {
  purpose: PasswordLinkPurpose;
  email: string;
  expires_at: string;
}

export async function linkAccount(db: Database, token: string | undefined, now: Date = new Date()): Promise<LinkAccountDto> {
  const unusable = () => new AppError('not-found', 'The link is unknown, used or expired.');
  const parsed = passwordTokenSchema.safeParse(token);
  if (!parsed.success) throw unusable();
  const [row] = await db
    .select({ purpose: passwordTokens.purpose, email: users.email, expiresAt: passwordTokens.expiresAt })
    .from(passwordTokens)
    .innerJoin(users, eq(users.id, passwordTokens.userId))
    .where(and(eq(passwordTokens.tokenHash, sha256Hex(parsed.data)), isNull(passwordTokens.usedAt), gt(passwordTokens.expiresAt, now)));
  if (!row) throw unusable();
  return { purpose: row.purpose as PasswordLinkPurpose, email: row.email, expires_at: row.expiresAt.toISOString() };
}
