/**
 * Typed environment, read on each call (tests change it) and checked with
 * zod so a production deploy with a missing secret fails loudly, not late.
 */
import { z } from '../lib/zod';

const emailAddress = z.string().trim().regex(/^[^\s@<>]+@[^\s@<>]+$/);
const mailbox = z.string().trim().regex(/^[^\r\n]+$/);

const envSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).optional(),
  POSTMARK_SERVER_TOKEN: z.string().min(1).optional(),
  MAIL_FROM: mailbox.default('Hausarztpraxis Düsseldorf <praxis@localhost>'),
  PRACTICE_EMAIL: emailAddress.default('praxis@localhost'),
  JWT_SECRET: z.string().min(32).optional(),
  ADMIN_SETUP_SECRET: z.string().min(1).optional(),
  SITE_URL: z.url().default('http://localhost:4321'),
  APP_ENV: z.enum(['production', 'development', 'test']).optional(),
  CONTEXT: z.string().optional(),
});

export type Env = z.infer<typeof envSchema> & { isProduction: boolean };

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const names = [...new Set(result.error.issues.map((i) => i.path.join('.')))].join(', ');
    throw new Error(`Invalid environment variables: ${names}`);
  }
  const isProduction = result.data.APP_ENV === 'production' || result.data.CONTEXT === 'production';
  if (isProduction) {
    const missing = (['DATABASE_URL', 'JWT_SECRET'] as const).filter((k) => !result.data[k]);
    if (missing.length) throw new Error(`Missing environment variables in production: ${missing.join(', ')}`);
  }
  return { ...result.data, isProduction };
}
