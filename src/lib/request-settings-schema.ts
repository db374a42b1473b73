/**
 * The practice's switches of the request form (PUT /api/admin/settings
 * `requests`), apart from request-schema.ts so that the account schemas,
 * which embed it, load no phone-number metadata.
 */
import { optionalAdminText } from './admin-text';
import { REQUEST_LIMITS } from './request-limits';
import * as z from './zod';

/** PUT /api/admin/settings `requests`: the kinds the form offers and the notice above it. */
export const requestSettingsSchema = z.strictObject({
  prescription: z.boolean({ error: 'admin.errors.invalid' }),
  referral: z.boolean({ error: 'admin.errors.invalid' }),
  callback: z.boolean({ error: 'admin.errors.invalid' }),
  notice_de: optionalAdminText(REQUEST_LIMITS.noticeMax),
  notice_en: optionalAdminText(REQUEST_LIMITS.noticeMax),
});
