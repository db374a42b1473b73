/**
 * Content collections: the texts editors change, one Markdown file per page
 * and language in src/content/<lang>/ (de, en). Each file's frontmatter is
 * checked against its schema (src/lib/content-schemas.ts, shared with the
 * content editor's server) when the site builds, so a missing or misspelt
 * field fails the build with the file and field named instead of reaching a
 * patient. The Markdown body below the frontmatter is rendered as the
 * page's free text (see each schema).
 *
 * Practice facts (name, address, phone, fax, email, opening hours, the
 * doctor's name) are NOT repeated here: they live once in
 * src/content/practice.json and pages read them through src/lib/practice.ts.
 *
 * Entries are addressed as "<lang>/<page>", e.g. getEntry('home', 'en/home').
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { contactSchema, homeSchema, labTestsSchema, legalSchema, teamSchema } from './lib/content-schemas';

const base = './src/content';
/** "de/home.md" → "de/home" */
const generateId = ({ entry }: { entry: string }) => entry.replace(/\.md$/, '');
const pageFiles = (name: string) => glob({ pattern: `{de,en}/${name}.md`, base, generateId });

export const collections = {
  home: defineCollection({ loader: pageFiles('home'), schema: homeSchema }),
  labTests: defineCollection({ loader: pageFiles('laboruntersuchungen'), schema: labTestsSchema }),
  team: defineCollection({ loader: pageFiles('team'), schema: teamSchema }),
  contact: defineCollection({ loader: pageFiles('kontakt'), schema: contactSchema }),
  legal: defineCollection({ loader: glob({ pattern: '{de,en}/{impressum,datenschutz}.md', base, generateId }), schema: legalSchema }),
};
