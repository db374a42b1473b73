/**
 * The privacy page (datenschutz, German and English) stays complete as
 * features are added: every table of db/schema.ts that holds sealed values
 * belongs to a kind of STORED_DATA_KINDS (src/lib/privacy-sections.ts), and
 * both language pages have each kind's section, found by its heading id as
 * the build makes it (Astro's own Markdown processor with the site's
 * settings); a section about sealed data says that it is encrypted and when
 * it is deleted. A new sealed table, or a new kind, fails here until the
 * page says what is kept, why and until when.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createMarkdownProcessor, parseFrontmatter } from '@astrojs/markdown-remark';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../db/schema';
import { safeMarkdown } from '../../src/integrations/safe-markdown';
import { STORED_DATA_KINDS } from '../../src/lib/privacy-sections';

const isSealedColumn = (name: string) => ['sealed', 'key_id'].includes(name) || name.endsWith('_sealed') || name.endsWith('_key_id');

/** Every table with a sealed value, by name. */
const sealedTables = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table))
  .filter((config) => config.columns.some((column) => isSealedColumn(column.name)))
  .map((config) => config.name)
  .sort();

describe('every sealed table is a kind of stored data', () => {
  it('finds the sealed tables of the schema (the check is not empty)', () => {
    expect(sealedTables).toEqual(expect.arrayContaining(['appointment_contacts', 'waitlist_entries', 'patient_requests', 'email_outbox', 'staff_second_factors']));
  });

  it('maps each sealed table to exactly one kind, and each listed table is a sealed table', () => {
    const listed = STORED_DATA_KINDS.flatMap((k) => k.tables.map((table) => ({ table, kind: k.kind })));
    const unlisted = sealedTables.filter((table) => !listed.some((l) => l.table === table));
    expect(unlisted, 'sealed tables without a kind in src/lib/privacy-sections.ts (add the kind and its section on both privacy pages)').toEqual([]);
    expect(listed.filter((l) => !sealedTables.includes(l.table)), 'listed tables that hold nothing sealed (or no longer exist)').toEqual([]);
    expect(new Set(listed.map((l) => l.table)).size, 'a table under two kinds').toBe(listed.length);
    expect(new Set(STORED_DATA_KINDS.map((k) => k.kind)).size, 'a kind listed twice').toBe(STORED_DATA_KINDS.length);
  });
});

const languages = [
  { lang: 'de', encrypted: /verschlüsselt/, deleted: /lösch/i },
  { lang: 'en', encrypted: /encrypted/, deleted: /delet/i },
] as const;

async function renderPage(lang: 'de' | 'en') {
  const source = await readFile(path.join('src/content', lang, 'datenschutz.md'), 'utf8');
  const processor = await createMarkdownProcessor(safeMarkdown);
  const rendered = await processor.render(parseFrontmatter(source).content);
  return { html: rendered.code, headings: rendered.metadata.headings };
}

describe.each(languages)('the privacy page in $lang has a section for each kind', ({ lang, encrypted, deleted }) => {
  let page: Awaited<ReturnType<typeof renderPage>>;
  beforeAll(async () => {
    page = await renderPage(lang);
  });

  /** The section's text: from its heading to the next heading of the same or a higher level. */
  function section(anchor: string): string {
    const heading = page.headings.find((h) => h.slug === anchor)!;
    const rest = page.html.slice(page.html.indexOf(`id="${anchor}"`));
    const next = rest.slice(1).search(new RegExp(`<h[1-${heading.depth}][ >]`));
    return (next === -1 ? rest : rest.slice(0, next + 1)).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
  }

  it.each(STORED_DATA_KINDS.map((k) => [k.kind, k.anchor[lang], k] as const))('%s: #%s', (_kind, anchor, kind) => {
    expect(
      page.headings.map((h) => h.slug),
      `${kind.what}: no heading with the id "${anchor}" on src/content/${lang}/datenschutz.md; add the section, or update the anchor in src/lib/privacy-sections.ts`,
    ).toContain(anchor);
    if (kind.tables.length === 0) return;
    expect(section(anchor)).toMatch(encrypted);
    expect(section(anchor)).toMatch(deleted);
  });
});

describe('both languages', () => {
  it('have the same sections, level by level', async () => {
    const [de, en] = await Promise.all([renderPage('de'), renderPage('en')]);
    expect(de.headings.map((h) => h.depth)).toEqual(en.headings.map((h) => h.depth));
  });

  it.each([
    ['de', 'warteliste-für-einen-früheren-termin', ['Geburtsdatum', 'Telefonnummer', 'E-Mail-Adresse', 'verschlüsselt', 'Gelöscht']],
    ['en', 'waitlist-for-an-earlier-appointment', ['date of birth', 'phone number', 'email address', 'encrypted', 'deleted']],
  ] as const)('the %s waitlist section says what is kept and until when', async (lang, anchor, words) => {
    const { html } = await renderPage(lang);
    const start = html.indexOf(`id="${anchor}"`);
    const text = html.slice(start, html.indexOf('<h3', start + 1)).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    for (const word of words) expect(text).toContain(word);
  });
});
