/**
 * The one reader of process.env for everything that runs (the functions,
 * the local server, the jobs): every variable is listed in VARIABLES, read
 * here and handed down: as the typed, checked `readEnv()`, as the database's
 * settings (`databaseSettings()`, installed as the source db/client.ts's
 * getDb() opens with when this module loads) and as
 * `variables()` for the few settings read where they are used (content
 * store, key ring, limits). Build scripts, astro.config, tests and the
 * benchmarks keep their own.
 *
 * Parsed once per process: the snapshot and the checked environment are
 * kept and used again as long as the raw values of the listed variables
 * (and Netlify's per-request deploy context) are unchanged, a string
 * comparison per call. Tests set variables between cases, and the local
 * server sets SITE_URL once it listens: a changed value is parsed afresh.
 * A configuration fault is never kept: each request answers it again.
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
import * as z from '../lib/zod';
import { databaseSettingsFrom, databaseUrlFrom, dataDirFrom, provideDatabaseSettings, type DatabaseSettings } from '../../db/settings';
import { netlifySiteUrl, previewDeployOrigin } from './netlify-deploy.server';
import { parseMailbox } from './email/mailbox.server';

/**
 * Exactly one mailbox (`Name <address>` or a bare address), checked with the
 * parser every send uses: `a@x, b@y` used to pass here and fail every send.
 */
const oneMailbox = z.string().check(
  z.trim(),
  z.refine((value) => {
    try {
      parseMailbox(value, 'env');
      return true;
    } catch {
      return false;
    }
  }),
);

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
  DATABASE_URL: z.optional(z.string().check(z.minLength(1), z.refine(isDatabaseUrl))),
  DATA_DIR: z.optional(z.string().check(z.minLength(1))),
  POSTMARK_SERVER_TOKEN: z.optional(z.string().check(z.minLength(1))),
  MAIL_FROM: z.optional(oneMailbox),
  PRACTICE_EMAIL: z.optional(oneMailbox),
  JWT_SECRET: z.optional(z.string().check(z.minLength(32))),
  ADMIN_SETUP_SECRET: z.optional(z.string().check(z.minLength(1))),
  SITE_URL: z.optional(z.url()),
  APP_ENV: z.optional(z.string()),
  CONTEXT: z.optional(z.string()),
  /**
   * Shortens how long a patient request's details are kept (docs/decisions/036-patient-requests.md):
   * whole days, at least 1; the details go after min(14, n) days once the
   * request is closed and after min(90, n) days at the latest.
   */
  REQUEST_RETENTION_DAYS: z.optional(z.pipe(z.string().check(z.regex(/^\d{1,5}$/)), z.transform(Number)).check(z.refine((n) => n >= 1))),
  /** The SMS provider's API key (seven.io); unset: the local stand-in outside production, no SMS in production (docs/decisions/043-sms-second-channel.md). */
  SMS_API_KEY: z.optional(z.string().check(z.minLength(1))),
  /** The sender shown on the patient's phone: letters and digits, at most 11 (what networks show as a name). */
  SMS_SENDER: z.optional(z.string().check(z.regex(/^[A-Za-z0-9]{1,11}$/))),
  /** SMS parts handed to the provider per Berlin month before further SMS go on the call list; default 300. */
  SMS_MONTHLY_LIMIT: z.optional(z.pipe(z.string().check(z.regex(/^\d{1,6}$/)), z.transform(Number))),
  /** The provider's signing key for its delivery reports (seven.io: Developer → API settings). */
  SMS_WEBHOOK_SECRET: z.optional(z.string().check(z.minLength(1))),
  /** /api/health's and the alerts' limit for a message waiting in the outbox, in whole minutes (default 15; docs/decisions/045-operations.md). */
  HEALTH_OUTBOX_MAX_AGE_MINUTES: z.optional(z.pipe(z.string().check(z.regex(/^\d{1,5}$/)), z.transform(Number)).check(z.refine((n) => n >= 1))),
  /** Who gets the operations alerts besides the admins who opted in (default: PRACTICE_EMAIL). */
  ALERT_EMAIL: z.optional(oneMailbox),
  /** The owner's mobile in E.164 ("+491701234567"): gets an alert by SMS when email itself is failing and SMS is configured. */
  ALERT_SMS: z.optional(z.string().check(z.regex(/^\+[1-9]\d{6,14}$/))),
  /** Error reports to Sentry (optional; docs/decisions/045-operations.md): the project's DSN, off when unset. */
  SENTRY_DSN: z.optional(z.url()),
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

/** Every variable the running code reads; nothing else of process.env reaches it. */
export const VARIABLES = [
  'APP_ENV',
  'CONTEXT',
  'DATABASE_URL',
  'NETLIFY_DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'DATABASE_CONNECT_TIMEOUT_MS',
  'DATABASE_STATEMENT_TIMEOUT_MS',
  'DATA_DIR',
  'DATA_ENCRYPTION_KEY',
  'POSTMARK_SERVER_TOKEN',
  'POSTMARK_WEBHOOK_USER',
  'POSTMARK_WEBHOOK_PASSWORD',
  'MAIL_FROM',
  'PRACTICE_EMAIL',
  'PRACTICE_NOTICE_DETAILS',
  'JWT_SECRET',
  'ADMIN_SETUP_SECRET',
  'SITE_URL',
  'URL',
  'DEPLOY_PRIME_URL',
  'BOOKINGS_PER_CLIENT_MAX',
  'REQUESTS_PER_CLIENT_MAX',
  'REQUEST_RETENTION_DAYS',
  'WAITLIST_OFFERS_ANY_HOUR',
  'SMS_API_KEY',
  'SMS_SENDER',
  'SMS_MONTHLY_LIMIT',
  'SMS_WEBHOOK_SECRET',
  'SMS_ANY_HOUR',
  'HEALTH_OUTBOX_MAX_AGE_MINUTES',
  'ALERT_EMAIL',
  'ALERT_SMS',
  'SENTRY_DSN',
  'COMMIT_REF',
  'GIT_REPOSITORY',
  'GIT_BRANCH',
  'GIT_TOKEN',
  'GIT_API_URL',
  'CONTENT_ROOT',
  'NETLIFY_API_URL',
  'NETLIFY_API_TOKEN',
  'NETLIFY_SITE_ID',
  'SITE_ID',
  'NETLIFY_PURGE_API_TOKEN',
] as const;

export type Variables = { readonly [K in (typeof VARIABLES)[number]]?: string };

let snapshot: { key: string; variables: Variables } | undefined;

/**
 * This process's variables (VARIABLES only, as set: an empty value stays
 * empty), read again only when one of them changed.
 */
export function variables(): Variables {
  let key = '';
  for (const name of VARIABLES) {
    const value = process.env[name];
    key += value === undefined ? '\u0000\u0001' : `${value}\u0001`;
  }
  if (snapshot?.key !== key) {
    const read: Record<string, string> = {};
    for (const name of VARIABLES) {
      const value = process.env[name];
      if (value !== undefined) read[name] = value;
    }
    snapshot = { key, variables: Object.freeze(read) };
  }
  return snapshot.variables;
}

/** Production unless APP_ENV=development. */
export function isProductionEnv(source: Readonly<Record<string, string | undefined>> = variables()): boolean {
  return source.APP_ENV !== 'development';
}

/** DATA_DIR, resolved (default `.data`): the outbox and the local key file live there, and the embedded database. */
export function dataDir(): string {
  return dataDirFrom(variables());
}

/**
 * The database's settings (db/client.ts receives them). Production never
 * opens the embedded database: no server database there is 503
 * not-configured naming DATABASE_URL.
 */
export function databaseSettings(): DatabaseSettings {
  const source = variables();
  const settings = databaseSettingsFrom(source);
  if (isEmbedded(settings.url) && isProductionEnv(source)) throw notConfigured(['DATABASE_URL']);
  return settings;
}

function isEmbedded(url: string | undefined): boolean {
  return !url || url.startsWith('pglite:');
}

// The process-wide database (db/client.ts getDb) opens with these settings.
provideDatabaseSettings(databaseSettings);

/**
 * The error of a production function missing configuration: one log line
 * naming the variables, a 503 `not-configured` naming nothing.
 */
export function notConfigured(names: readonly string[]): AppError {
  console.error(`not configured: set ${names.join(', ')} (missing or invalid in production)`);
  return new AppError('not-configured', 'The server is not configured yet. Please try again later.');
}

/** The mail webhook's credentials: a site runs without them, but no bounce reaches it. */
export const MAIL_WEBHOOK_VARIABLES = ['POSTMARK_WEBHOOK_USER', 'POSTMARK_WEBHOOK_PASSWORD'] as const;

let warnedNoMailWebhook = false;

/**
 * A production process without the mail webhook's credentials says so once,
 * by name (never a value): the functions work, but a bounced email goes
 * unnoticed, so nobody is asked to call the patient.
 */
function warnIfNoMailWebhook(source: Readonly<Record<string, string | undefined>>): void {
  if (warnedNoMailWebhook) return;
  if (MAIL_WEBHOOK_VARIABLES.every((name) => source[name]?.trim())) return;
  warnedNoMailWebhook = true;
  console.warn(`mail webhook not configured: set ${MAIL_WEBHOOK_VARIABLES.join(', ')} (bounced emails stay unnoticed until then)`);
}

let checked: { from: Variables; preview: string | null; env: Env } | undefined;

/**
 * The checked environment: this process's (kept while its variables and
 * the deploy context are unchanged), or that of `source` (tests).
 */
export function readEnv(source?: NodeJS.ProcessEnv): Env {
  if (source) return parseEnv(source);
  const from = variables();
  const preview = previewDeployOrigin();
  if (checked && checked.from === from && checked.preview === preview) return checked.env;
  const env = parseEnv(from);
  checked = { from, preview, env };
  return env;
}

function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
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
    warnIfNoMailWebhook(source);
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
