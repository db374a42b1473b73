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

const text = z.string().trim().min(1);

/** Every page: what the browser tab and search engines show. */
const pageMeta = {
  /** The document title (browser tab, search results). */
  title: text.describe('document title'),
  /** One or two sentences for search engines (meta description). */
  description: text.describe('meta description'),
};

/** A heading with a paragraph. */
const block = z.object({
  heading: text,
  text: text,
});

/** A card: title, text and an optional list of short items. */
const card = z.object({
  title: text,
  text: text.optional(),
  /** Short bullet points shown under the text. */
  items: z.array(text).default([]),
});

/** Home page (/ and /en/). The Markdown body is the "about the practice" text. */
export const homeSchema = z.object({
  ...pageMeta,
  hero: z.object({
    /** The page's main heading (h1). */
    heading: text,
    text: text,
    /** Label of the button to the online booking (/termin). */
    bookLabel: text,
    /** Label of the call button; the phone number from practice.json is added. */
    callLabel: text,
  }),
  /** Opening hours box; the hours themselves come from practice.json. */
  hours: z.object({ heading: text, note: text }),
  /** The current news item (e.g. the flu vaccination season). */
  news: block.extend({ badge: text }),
  services: z.object({
    heading: text,
    intro: text,
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
      text: text,
      /** Who it is useful for. */
      forWhom: text.optional(),
    }),
  ),
  /** How the tests are billed (GOÄ, private service). */
  billing: block,
  packages: z.object({
    heading: text,
    intro: text,
    items: z.array(
      z.object({
        name: text,
        /** The tests included. */
        includes: z.array(text).min(1),
        note: text.optional(),
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
  text: text.optional(),
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
    philosophy: text,
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
  form: z.object({ heading: text, intro: text }),
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
