/**
 * Typed environment, read on each call (tests change it) and checked with zod.
 *
 * Fail closed: everything runs as production unless APP_ENV=development,
 * which `npm start`, `npm run dev` and the tests set themselves. Netlify's
 * [build.environment] never reaches functions at run time, so a deployed
 * function that sees no APP_ENV is production.
 *
 * In production every variable below marked required must be set and valid;
 * otherwise each request answers 503 `not-configured` (naming nothing) and
 * logs one line naming the variables. Outside production they have local
 * defaults (embedded database, outbox, random JWT secret).
 */
import { AppError } from '../lib/errors';
import { z } from '../lib/zod';
import { netlifySiteUrl, previewDeployOrigin } from './netlify-deploy.server';
import { parseMailbox } from './email/mailbox.server';

/**
 * Exactly one mailbox (`Name <address>` or a bare address), checked with the
 * parser every send uses: `a@x, b@y` used to pass here and fail every send.
 */
const oneMailbox = z
  .string()
  .trim()
  .refine((value) => {
    try {
      parseMailbox(value, 'env');
      return true;
    } catch {
      return false;
    }
  });

const LOCAL_DEFAULTS = {
  MAIL_FROM: 'Hausarztpraxis Düsseldorf <praxis@localhost>',
  PRACTICE_EMAIL: 'praxis@localhost',
  SITE_URL: 'http://localhost:4321',
} as const;

/**
 * `pglite:…` (local) or a postgres:// URL that parses. Anything else (a URL
 * pasted with quotes or spaces, another scheme) is a configuration fault,
 * reported like a missing variable rather than failing later in the driver.
 */
export function isDatabaseUrl(value: string): boolean {
  if (value.startsWith('pglite:')) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const envSchema = z.object({
  DATABASE_URL: z.string().min(1).refine(isDatabaseUrl).optional(),
  DATA_DIR: z.string().min(1).optional(),
  POSTMARK_SERVER_TOKEN: z.string().min(1).optional(),
  MAIL_FROM: oneMailbox.optional(),
  PRACTICE_EMAIL: oneMailbox.optional(),
  JWT_SECRET: z.string().min(32).optional(),
  ADMIN_SETUP_SECRET: z.string().min(1).optional(),
  SITE_URL: z.url().optional(),
  APP_ENV: z.string().optional(),
  CONTEXT: z.string().optional(),
});

/** Variables a production function cannot work without. */
export const REQUIRED_IN_PRODUCTION = [
  'DATABASE_URL',
  'JWT_SECRET',
  'POSTMARK_SERVER_TOKEN',
  'MAIL_FROM',
  'PRACTICE_EMAIL',
  'SITE_URL',
] as const;

type Parsed = z.infer<typeof envSchema>;
export type Env = Omit<Parsed, 'MAIL_FROM' | 'PRACTICE_EMAIL' | 'SITE_URL'> & {
  MAIL_FROM: string;
  PRACTICE_EMAIL: string;
  SITE_URL: string;
  isProduction: boolean;
};

/** Production unless APP_ENV=development. */
export function isProductionEnv(source: NodeJS.ProcessEnv = process.env): boolean {
  return source.APP_ENV !== 'development';
}

/** The server database: DATABASE_URL, or Netlify's Neon integration's NETLIFY_DATABASE_URL when that is unset. */
export function databaseUrlFrom(source: NodeJS.ProcessEnv = process.env): string | undefined {
  return source.DATABASE_URL || source.NETLIFY_DATABASE_URL || undefined;
}

/**
 * The error of a production function missing configuration: one log line
 * naming the variables, a 503 `not-configured` naming nothing.
 */
export function notConfigured(names: readonly string[]): AppError {
  console.error(`not configured: set ${names.join(', ')} (missing or invalid in production)`);
  return new AppError('not-configured', 'The server is not configured yet. Please try again later.');
}

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const cleaned: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') cleaned[k] = v;
  const url = databaseUrlFrom(source);
  if (url) cleaned.DATABASE_URL = url;
  const isProduction = isProductionEnv(source);
  // Without SITE_URL: a deploy preview links (emails) to itself; a deployed function takes Netlify's
  // own address as the build does (DEPLOY_PRIME_URL on a preview, else URL).
  const fallback = cleaned.SITE_URL ? null : (previewDeployOrigin() ?? (isProduction ? netlifySiteUrl(source) : null));
  if (fallback) cleaned.SITE_URL = fallback;

  const result = envSchema.safeParse(cleaned);
  let data: Parsed;
  if (result.success) {
    data = result.data;
  } else {
    // The database URL is named by the variable it came from.
    const named = (key: string) => (key === 'DATABASE_URL' && !source.DATABASE_URL ? 'NETLIFY_DATABASE_URL' : key);
    const invalid = [...new Set(result.error.issues.map((i) => named(String(i.path[0]))))];
    // Values are never echoed: they may be secrets.
    if (!isProduction) throw new Error(`Invalid environment variables: ${invalid.join(', ')}`);
    throw notConfigured(invalid);
  }

  if (isProduction) {
    const missing: string[] = REQUIRED_IN_PRODUCTION.filter((k) => !data[k]);
    // The embedded database belongs to one local process; never in production.
    if (data.DATABASE_URL?.startsWith('pglite:')) missing.unshift('DATABASE_URL');
    if (missing.length) throw notConfigured([...new Set(missing)]);
  }
  return {
    ...data,
    MAIL_FROM: data.MAIL_FROM ?? LOCAL_DEFAULTS.MAIL_FROM,
    PRACTICE_EMAIL: data.PRACTICE_EMAIL ?? LOCAL_DEFAULTS.PRACTICE_EMAIL,
    SITE_URL: data.SITE_URL ?? LOCAL_DEFAULTS.SITE_URL,
    isProduction,
  };
}
