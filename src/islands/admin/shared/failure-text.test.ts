/**
 * Every back-office text is German, the server's reasons included
 * (docs/architecture.md, Language): each problem type the API can answer and each field-error key
 * the shared schemas and server modules emit has a German text, and the
 * API's English `detail` never reaches a toast.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HTTP_STATUS_BY_CODE } from '../../../lib/errors';
import { ApiError, failureText } from './admin-api';
import { errorText, labels } from './labels';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

/** Files whose validation messages reach the back office: the schemas of its forms and every server module. */
const BACK_OFFICE_SCHEMAS = ['src/lib/admin-schemas.ts', 'src/lib/admin-text.ts', 'src/lib/account-schemas.ts', 'src/lib/auth-schemas.ts', 'src/lib/audit.ts'];
const keysIn = (file: string, pattern: RegExp) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => m[1]!);

describe('German texts for every server answer', () => {
  it('words every problem type of src/lib/errors.ts and the 500', () => {
    for (const type of [...Object.keys(HTTP_STATUS_BY_CODE), 'internal-error']) {
      expect(labels.problems.types[type], type).toMatch(/\S/);
    }
  });

  it('words every field-error key the back-office schemas and the server emit', () => {
    const keys = new Set([
      ...BACK_OFFICE_SCHEMAS.flatMap((file) => keysIn(file, /'([A-Za-z]+(?:\.[A-Za-z]+)*\.errors\.[A-Za-z]+|errors\.[A-Za-z]+)'/g)),
      // Server modules and functions: the shared `errors.*` and `admin.errors.*` keys (patient namespaces belong to the patient islands).
      ...[...sources('src/server'), ...sources('netlify/functions')].flatMap((file) => keysIn(file, /'((?:admin\.)?errors\.[A-Za-z]+)'/g)),
    ]);
    expect(keys.size).toBeGreaterThan(20);
    const missing = [...keys].filter((key) => labels.errors[key] === undefined);
    expect(missing).toEqual([]);
  });

  it('shows a key without a text as "invalid", and a sentence a page set as it is', () => {
    expect(errorText('errors.somethingNew')).toBe('Ungültiger Wert.');
    expect(errorText('Das aktuelle Passwort ist falsch.')).toBe('Das aktuelle Passwort ist falsch.');
    expect(errorText(undefined)).toBeUndefined();
  });
});

describe('failureText', () => {
  it("never shows the API's detail: the reason, then the type, then the status decide", () => {
    const notFound = new ApiError(404, 'Unknown time window.', undefined, { type: 'not-found' });
    expect(failureText(notFound)).toBe('Den Eintrag gibt es nicht (mehr). Bitte laden Sie die Seite neu.');
    const full = new ApiError(409, 'The time is taken.', undefined, { type: 'slot-unavailable', reason: 'full' });
    expect(failureText(full)).toBe('Diese Zeit ist bereits ausgebucht.');
    expect(failureText(new ApiError(409, 'The time is taken.', undefined, { type: 'slot-unavailable' }))).toBe('Diese Zeit ist nicht (mehr) buchbar.');
    expect(failureText(new ApiError(502, 'Bad Gateway'))).toBe('Ein unerwarteter Fehler ist aufgetreten.');
    expect(failureText(new ApiError(429, 'Too Many Requests'))).toMatch(/^Zu viele Versuche/);
    expect(failureText(new TypeError('Failed to fetch'))).toMatch(/^Der Server ist nicht erreichbar/);
  });

  it("lets a page word a type in its own terms", () => {
    const taken = new ApiError(409, 'exists', undefined, { type: 'conflict' });
    expect(failureText(taken, { conflict: 'Diese E-Mail-Adresse ist bereits vergeben.' })).toBe('Diese E-Mail-Adresse ist bereits vergeben.');
  });

  it('reads type and reason from a problem+json answer', () => {
    const res = new Response(null, { status: 409, statusText: 'Conflict' });
    const error = ApiError.fromProblem(res, { type: 'slot-unavailable', title: 'Conflict', detail: 'gone', reason: 'blocked' });
    expect(error).toMatchObject({ status: 409, type: 'slot-unavailable', reason: 'blocked', message: 'gone' });
    expect(failureText(error)).toBe('Diese Zeit ist gesperrt.');
  });
});
