/**
 * Environment variables for one test file: set in beforeAll, put back in
 * afterAll, each to what it was before (unset stays unset). vi.stubEnv does
 * the same for single tests, but vi.unstubAllEnvs() inside a test would also
 * undo a file's own settings.
 */
export function setEnv(values: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The variables a production function cannot work without, with values that pass their checks (APP_ENV unset: production). */
export const PRODUCTION_VARIABLES = {
  DATABASE_URL: 'postgres://u:p@db.example/praxis',
  JWT_SECRET: 'x'.repeat(40),
  POSTMARK_SERVER_TOKEN: 'token',
  MAIL_FROM: 'Praxis <praxis@example.de>',
  PRACTICE_EMAIL: 'team@example.de',
  SITE_URL: 'https://www.praxis.example',
} as const;
