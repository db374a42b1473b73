/**
 * `.env.example` lists every variable the running code reads (VARIABLES of
 * src/server/env.server.ts), each with a one-line comment above it, so an
 * owner setting up the site sees them all in one place.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VARIABLES } from '../../src/server/env.server';

const lines = readFileSync('.env.example', 'utf8').split('\n');
const listed = lines.flatMap((line, i) => {
  const name = /^([A-Z][A-Z0-9_]*)=/.exec(line)?.[1];
  return name ? [{ name, line: i }] : [];
});

describe('.env.example', () => {
  it('lists every variable of VARIABLES', () => {
    const names = new Set(listed.map((v) => v.name));
    expect(VARIABLES.filter((name) => !names.has(name))).toEqual([]);
  });

  it('lists the webhook credentials and the request retention too', () => {
    const names = listed.map((v) => v.name);
    for (const name of ['POSTMARK_WEBHOOK_USER', 'POSTMARK_WEBHOOK_PASSWORD', 'REQUEST_RETENTION_DAYS']) expect(names).toContain(name);
  });

  it('tells to make the webhook credentials URL-safe (hex): they go into the webhook URL, where base64 breaks', () => {
    for (const name of ['POSTMARK_WEBHOOK_USER', 'POSTMARK_WEBHOOK_PASSWORD']) {
      const comment = lines[listed.find((v) => v.name === name)!.line - 1]!;
      expect(comment, name).toContain('openssl rand -hex');
      expect(comment, name).not.toMatch(/rand -base64/);
    }
  });

  it('leaves every value empty: nothing secret or real goes into the repository', () => {
    expect(lines.filter((line) => /^[A-Z][A-Z0-9_]*=./.test(line))).toEqual([]);
  });

  it('says what each variable is for, on the comment line above it (or above a group of two)', () => {
    const undescribed = listed.filter(({ line }) => !lines[line - 1]?.startsWith('# ') && !(/^[A-Z]/.test(lines[line - 1] ?? '') && lines[line - 2]?.startsWith('# ')));
    expect(undescribed.map((v) => v.name)).toEqual([]);
    expect(new Set(listed.map((v) => v.name)).size, 'each variable once').toBe(listed.length);
  });
});
