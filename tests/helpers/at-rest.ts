/**
 * What the privacy tests search for values in clear (docs/architecture.md,
 * Privacy): every row of every table as JSON, and every file of a data
 * directory but the outbox (which stands for the mail service).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';

export async function everyTableAsText(db: Database): Promise<string> {
  const result = await db.execute(
    sql`select table_schema as s, table_name as n from information_schema.tables
        where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`,
  );
  const out: string[] = [];
  for (const { s, n } of (result as unknown as { rows: Array<{ s: string; n: string }> }).rows) {
    const rows = await db.execute(sql.raw(`select row_to_json(x)::text as j from "${s}"."${n}" x`));
    out.push(...(rows as unknown as { rows: Array<{ j: string }> }).rows.map((r) => r.j));
  }
  return out.join('\n');
}

/** Every file under `dir` but the outbox, as bytes. */
export async function filesOf(dir: string): Promise<Array<{ file: string; bytes: Buffer }>> {
  const out: Array<{ file: string; bytes: Buffer }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || file.startsWith(path.join(dir, 'outbox'))) continue;
    out.push({ file, bytes: await readFile(file) });
  }
  return out;
}
