/**
 * The schemas of the page texts editors change (src/content/<lang>/<page>.md),
 * shared by the build (src/content.config.ts, Astro's content collections)
 * and the content editor's server (netlify/functions/admin-content.ts), so
 * that a save is checked exactly as the build will check it.
 *
 * Written with Astro's own zod (`astro/zod`, zod 3), because Astro 5's
 * collections need it; `astro/zod` is only zod, none of Astro's runtime.
 * Each field's doc comment says what it is for; the editor's German labels
 * live in src/lib/content-fields.ts.
 */
import { z } from 'astro/zod';
import type { ContentPage } from './content-files';
import { hasEncodedWord, hasLineBreak, isCleanLine, isCleanText } from './text-input';

/**
 * Page text follows the admin text rules, as practice.json does
 * (docs/decisions/015-admin-text-rules.md,
 * docs/decisions/037-passkeys-sessions-guessing.md): no control, format
 * (bidi) or noncharacter code point, however the YAML spells it ("\u202E",
 * "\x01"), no encoded word. A one-line field (a heading, a label, a name:
 * a one-line input in the editor) holds no line break; a paragraph (the
 * keys the editor shows as a text area: text, intro, note, philosophy,
 * description; src/lib/content-fields.ts) may hold LF or CRLF, nothing
 * else. The issues carry the admin text keys, which the content editor's
 * server words in German (src/server/content/check.server.ts).
 */
const text = z
  .string()
  .trim()
  .min(1)
  .superRefine((v, ctx) => {
    if (hasLineBreak(v)) ctx.addIssue({ code: 'custom', message: 'admin.errors.singleLine' });
    else if (!isCleanLine(v)) ctx.addIssue({ code: 'custom', message: 'admin.errors.invalidCharacters' });
  });

const paragraph = z
  .string()
  .trim()
  .min(1)
  .superRefine((v, ctx) => {
    if (!isCleanText(v) || hasEncodedWord(v)) ctx.addIssue({ code: 'custom', message: 'admin.errors.invalidCharacters' });
  });

/** Every page: what the browser tab and search engines show. */
const pageMeta = {
  /** The document title (browser tab, search results). */
  title: text.describe('document title'),
  /** One or two sentences for search engines (meta description). */
  description: paragraph.describe('meta description'),
};

/** A heading with a paragraph. */
const block = z.object({
  heading: text,
  text: paragraph,
});

/** A card: title, text and an optional list of short items. */
const card = z.object({
  title: text,
  text: paragraph.optional(),
  /** Short bullet points shown under the text. */
  items: z.array(text).default([]),
});

/** Home page (/ and /en/). The Markdown body is the "about the practice" text. */
export const homeSchema = z.object({
  ...pageMeta,
  hero: z.object({
    /** The page's main heading (h1). */
    heading: text,
    text: paragraph,
    /** Label of the button to the online booking (/termin). */
    bookLabel: text,
    /** Label of the call button; the phone number from practice.json is added. */
    callLabel: text,
  }),
  /** Opening hours box; the hours themselves come from practice.json. */
  hours: z.object({ heading: text, note: paragraph }),
  /** The current news item (e.g. the flu vaccination season). */
  news: block.extend({ badge: text }),
  services: z.object({
    heading: text,
    intro: paragraph,
    /** One card per service group (preventive medicine, general medicine, ...). */
    groups: z.array(card).min(1),
  }),
  /** Call-to-action for an appointment; its button leads to /termin. */
  appointment: block.extend({ buttonLabel: text }),
  /** Emergency and out-of-hours notice with the phone numbers to call. */
  emergency: block.extend({
    numbers: z.array(z.object({ number: z.string().regex(/^[0-9 ]+$/), label: text })).min(1),
  }),
  /** Repeat prescriptions and referrals. */
  prescriptions: block.extend({ items: z.array(text).min(1) }),
  /** Heading above the Markdown body. */
  aboutHeading: text,
});

/** Lab tests page (/laboruntersuchungen). The Markdown body is the introduction. */
export const labTestsSchema = z.object({
  ...pageMeta,
  heading: text,
  /** One section per test (homocysteine, Lp(a), vitamin D, ...). */
  tests: z.array(
    z.object({
      name: text,
      /** What the value tells. */
      text: paragraph,
      /** Who it is useful for. */
      forWhom: text.optional(),
    }),
  ),
  /** How the tests are billed (GOÄ, private service). */
  billing: block,
  packages: z.object({
    heading: text,
    intro: paragraph,
    items: z.array(
      z.object({
        name: text,
        /** The tests included. */
        includes: z.array(text).min(1),
        note: paragraph.optional(),
      }),
    ),
  }),
  /** Call-to-action; its button leads to /termin. */
  appointment: block.extend({ buttonLabel: text }),
});

const person = z.object({
  /** Shown as written. PLACEHOLDER names are marked in the Markdown file. */
  name: text,
  role: text,
  text: paragraph.optional(),
});

/** Team page (/team). The Markdown body is the introduction. */
export const teamSchema = z.object({
  ...pageMeta,
  heading: text,
  /** The practice's doctor; the name comes from practice.json ("doctor"). */
  doctor: z.object({
    role: text,
    educationHeading: text,
    education: z.array(text).min(1),
    careerHeading: text,
    career: z.array(text).min(1),
    philosophyHeading: text,
    philosophy: paragraph,
  }),
  assistantDoctor: z.object({ heading: text, person }),
  /** The medical assistants (MFA); one of them is also the practice manager. */
  assistants: z.object({ heading: text, people: z.array(person).min(1) }),
  values: z.object({ heading: text, items: z.array(block).min(1) }),
});

/** Contact page (/kontakt). The Markdown body is the introduction. */
export const contactSchema = z.object({
  ...pageMeta,
  heading: text,
  /** Heading of the address/phone/hours box; the facts come from practice.json. */
  detailsHeading: text,
  /** Heading and intro of the contact form. */
  form: z.object({ heading: text, intro: paragraph }),
  /** "Additional services" cards below the form. */
  services: z.object({ heading: text, cards: z.array(card).min(1) }),
});

/**
 * Legal pages (/impressum, /datenschutz). The practice's facts (name,
 * doctor, address, phone, email) are shown from practice.json under
 * `factsHeading`; everything else is the Markdown body. Text in
 * [PLATZHALTER: …] / [PLACEHOLDER: …] must be replaced by the practice.
 */
export const legalSchema = z.object({
  ...pageMeta,
  heading: text,
  /** Heading above the practice facts block (e.g. "Angaben gemäß § 5 DDG"). */
  factsHeading: text,
  /** Date of the last revision, shown at the end; write it as yyyy-MM-dd. */
  updated: z.coerce.date(),
});

/** Each editable page's schema, by file name (src/content/<lang>/<page>.md). */
export const PAGE_SCHEMAS = {
  home: homeSchema,
  laboruntersuchungen: labTestsSchema,
  team: teamSchema,
  kontakt: contactSchema,
  impressum: legalSchema,
  datenschutz: legalSchema,
} satisfies Record<ContentPage, z.ZodTypeAny>;
