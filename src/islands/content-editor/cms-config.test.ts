/**
 * The editor's configuration: every page's every schema field is
 * a form field with a German label, in both languages side by side.
 */
import { z as z4 } from 'zod';
import { z as z3 } from 'zod/v3';
import { describe, expect, it } from 'vitest';
import { CONTENT_PAGES } from '../../lib/content-files';
import { buildCmsConfig, fieldFor, type CmsField } from './cms-config';

const config = buildCmsConfig();
const pages = config.collections.filter((c): c is Extract<typeof c, { folder: string }> => 'folder' in c);

function names(fields: CmsField[], prefix = ''): string[] {
  return fields.flatMap((f) => {
    const here = `${prefix}${f.name}`;
    const nested = (f.fields as CmsField[] | undefined) ?? [];
    return [here, ...names(nested, `${here}.`)];
  });
}

describe('content editor configuration', () => {
  it('has one collection per page, in both languages side by side, and one for the practice facts', () => {
    expect(pages.map((c) => c.name)).toEqual([...CONTENT_PAGES]);
    expect(config.i18n).toEqual({ structure: 'multiple_folders', locales: ['de', 'en'], default_locale: 'de' });
    expect(pages.every((c) => c.i18n && !c.create && !c.delete)).toBe(true);
    expect(config.collections.at(-1)).toMatchObject({ name: 'practice', files: [{ file: 'src/content/practice.json', format: 'json' }] });
  });

  it('makes every frontmatter field of the home page a labelled form field, nested groups and lists included, and the body Markdown', () => {
    const home = pages.find((c) => c.name === 'home')!;
    const all = names(home.fields);
    for (const field of ['title', 'description', 'hero.heading', 'hero.callLabel', 'services.groups.title', 'services.groups.items', 'emergency.numbers.number', 'aboutHeading', 'body']) {
      expect(all).toContain(field);
    }
    expect(home.fields.find((f) => f.name === 'hero')).toMatchObject({ widget: 'object', label: 'Kopfbereich' });
    expect(home.fields.find((f) => f.name === 'body')).toMatchObject({ widget: 'markdown', editor_components: [] });
    const label = (f: CmsField): string[] => [f.label, ...((f.fields as CmsField[] | undefined) ?? []).flatMap(label)];
    expect(home.fields.flatMap(label).every((l) => /[A-ZÄÖÜ]/.test(l[0]!))).toBe(true);
  });

  it("reads zod 3 (Node) and zod 4 (inside Astro's build) schemas alike", () => {
    const zod4 = z4.object({
      heading: z4.string().trim().min(1),
      updated: z4.coerce.date(),
      number: z4.string().regex(/^[0-9 ]+$/),
      items: z4.array(z4.string().min(1)).default([]),
      cards: z4.array(z4.object({ title: z4.string(), text: z4.string().optional() })).min(1),
    });
    const zod3 = z3.object({
      heading: z3.string().trim().min(1),
      updated: z3.coerce.date(),
      number: z3.string().regex(/^[0-9 ]+$/),
      items: z3.array(z3.string().min(1)).default([]),
      cards: z3.array(z3.object({ title: z3.string(), text: z3.string().optional() })).min(1),
    });
    const walk = (schema: unknown) => fieldFor(schema as Parameters<typeof fieldFor>[0], ['x']);
    expect(walk(zod4)).toEqual(walk(zod3));
    const fields = (walk(zod4) as { fields: CmsField[] }).fields;
    expect(fields.map((f) => f.widget)).toEqual(['string', 'datetime', 'string', 'list', 'list']);
    expect(fields[2]).toMatchObject({ pattern: ['^[0-9 ]+$', expect.any(String)] });
    expect(fields[3]).toMatchObject({ required: false });
    expect(fields[4]).toMatchObject({ min: 1, fields: [{ name: 'title' }, { name: 'text', required: false }] });
  });
});
