/**
 * A scratch database on the harness's real Postgres for testing a committed
 * migration over data of the release before: apply the SQL files up to the
 * migration, write the old data, apply the rest. Registers its own
 * beforeAll/afterAll (create, then drop the database).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { migrationsFolder } from '../../db/migrate';

async function statementsOf(tag: string): Promise<string[]> {
  const text = await readFile(path.join(migrationsFolder, `${tag}.sql`), 'utf8');
  return text.split('--> statement-breakpoint').map((s) => s.trim()).filter(Boolean);
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  await admin.query(sql);
  await admin.end();
}

export function useScratchDatabase() {
  const name = `test_${randomBytes(6).toString('hex')}`;
  let client: pg.Client;

  beforeAll(async () => {
    await adminQuery(`create database ${name}`);
    client = new pg.Client({ connectionString: inject('postgresAdminUrl').replace(/\/postgres$/, `/${name}`) });
    await client.connect();
  });

  afterAll(async () => {
    await client.end();
    await adminQuery(`drop database if exists ${name} with (force)`);
  });

  /** The committed migrations in journal order, split at the one whose tag ends with `suffix`: `before()` and `rest()` apply them. */
  async function migrationsAround(suffix: string) {
    const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: Array<{ tag: string }> };
    const tags = journal.entries.map((e) => e.tag);
    const at = tags.findIndex((tag) => tag.endsWith(suffix));
    expect(at, `a migration ending in ${suffix}`).toBeGreaterThan(0);
    const apply = async (part: string[]) => {
      for (const tag of part) for (const statement of await statementsOf(tag)) await client.query(statement);
    };
    return { before: () => apply(tags.slice(0, at)), rest: () => apply(tags.slice(at)) };
  }

  return { client: () => client, migrationsAround };
}
