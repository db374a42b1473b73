/**
 * Decap CMS's configuration for /admin/inhalte, generated from the content
 * schemas (src/lib/content-schemas.ts) when the site builds, so every field
 * the build checks is a form field, with the German labels of
 * src/lib/content-fields.ts. Runs at build time only (the page passes the
 * result to the editor as plain data): no zod reaches the browser.
 *
 * Each page is a folder collection of one entry in both languages (see
 * virtual-paths.ts for why).
 */
import { fieldLabel, isLongText } from '../../lib/content-fields';
import { CONTENT_LANGUAGES, CONTENT_PAGES, PAGE_LABELS, PRACTICE_FILE, PRACTICE_LABEL } from '../../lib/content-files';
import { PAGE_SCHEMAS } from '../../lib/content-schemas';
import { virtualFolder } from './virtual-paths';

export type CmsField = Record<string, unknown> & { name: string; label: string; widget: string };

interface ZodLike {
  _def: Record<string, unknown> & { typeName?: string; type?: unknown; checks?: Array<Record<string, unknown>> };
  shape?: Record<string, ZodLike>;
}

interface Described {
  kind: 'object' | 'array' | 'date' | 'string' | 'other';
  required: boolean;
  schema: ZodLike;
  element?: ZodLike;
  min?: number;
  pattern?: RegExp;
}

/**
 * What a schema field is. `astro/zod` is zod 3 where Node resolves it (the
 * function, the tests) but zod 4 inside Astro's build, which resolves
 * "zod" from the project: both shapes of `_def` are read here.
 */
export function describeSchema(schema: ZodLike): Described {
  let s = schema;
  let required = true;
  for (let i = 0; i < 8; i++) {
    const kind = String(s._def.typeName ?? s._def.type);
    if (['ZodOptional', 'ZodDefault', 'optional', 'default'].includes(kind)) required = false;
    const inner = (s._def.innerType ?? s._def.schema ?? (kind === 'pipe' ? s._def.out : undefined)) as ZodLike | undefined;
    if (!inner || !['ZodOptional', 'ZodDefault', 'ZodNullable', 'ZodEffects', 'optional', 'default', 'nullable', 'pipe'].includes(kind)) break;
    s = inner;
  }
  const kind = String(s._def.typeName ?? s._def.type);
  const checks = (s._def.checks ?? []).map((c) => ((c._zod as { def?: Record<string, unknown> } | undefined)?.def ?? c) as Record<string, unknown>);
  const regex = checks.find((c) => c.kind === 'regex' || c.format === 'regex');
  const minLength = (s._def.minLength as { value: number } | null | undefined)?.value ?? checks.find((c) => c.check === 'min_length')?.minimum;
  const described: Described = { kind: 'other', required, schema: s, pattern: (regex?.regex ?? regex?.pattern) as RegExp | undefined };
  if (kind === 'ZodObject' || kind === 'object') return { ...described, kind: 'object' };
  if (kind === 'ZodArray' || kind === 'array') {
    return { ...described, kind: 'array', element: (s._def.element ?? s._def.type) as ZodLike, min: typeof minLength === 'number' ? minLength : undefined };
  }
  if (kind === 'ZodDate' || kind === 'date') return { ...described, kind: 'date' };
  if (kind === 'ZodString' || kind === 'string') return { ...described, kind: 'string' };
  return described;
}

/** One form field for a schema field. */
export function fieldFor(schema: ZodLike, path: string[]): Omit<CmsField, 'name'> {
  const d = describeSchema(schema);
  const base = { label: fieldLabel(path), i18n: true, ...(d.required ? {} : { required: false }) };
  switch (d.kind) {
    case 'object':
      return { ...base, widget: 'object', collapsed: false, fields: fieldsOf(d.schema, path) };
    case 'array': {
      const bounds = d.min ? { min: d.min } : {};
      if (describeSchema(d.element!).kind === 'object') {
        return { ...base, widget: 'list', collapsed: true, label_singular: 'Eintrag', ...bounds, fields: fieldsOf(describeSchema(d.element!).schema, path) };
      }
      const item = fieldFor(d.element!, path);
      return { ...base, widget: 'list', label_singular: 'Eintrag', ...bounds, field: { name: 'item', ...item, label: 'Eintrag' } };
    }
    case 'date':
      return { ...base, widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'DD.MM.YYYY', time_format: false };
    default:
      return {
        ...base,
        widget: isLongText(path) ? 'text' : 'string',
        ...(d.pattern ? { pattern: [d.pattern.source, 'Bitte in der vorgegebenen Form eingeben.'] } : {}),
      };
  }
}

function fieldsOf(schema: ZodLike, path: string[]): CmsField[] {
  return Object.entries(schema.shape ?? {}).map(([name, field]) => ({ name, ...fieldFor(field, [...path, name]) }) as CmsField);
}

const WEEKDAYS = [
  { label: 'Montag', value: 1 },
  { label: 'Dienstag', value: 2 },
  { label: 'Mittwoch', value: 3 },
  { label: 'Donnerstag', value: 4 },
  { label: 'Freitag', value: 5 },
  { label: 'Samstag', value: 6 },
  { label: 'Sonntag', value: 0 },
];
const HH_MM = ['^([01]\\d|2[0-3]):[0-5]\\d$', 'Bitte als HH:mm eingeben, z. B. 08:20.'];

/** practice.json's form: by hand, because weekdays are a choice, not numbers to type. */
function practiceFields(): CmsField[] {
  const text = (name: string, extra: Record<string, unknown> = {}): CmsField => ({ name, label: fieldLabel([name]), widget: 'string', ...extra });
  return [
    { name: 'name', label: 'Name der Praxis', widget: 'object', collapsed: false, fields: [text('de', { label: fieldLabel(['name', 'de']) }), text('en', { label: fieldLabel(['name', 'en']) })] },
    text('doctor', { label: 'Verantwortliche Ärztin / verantwortlicher Arzt' }),
    text('street'),
    text('postalCode', { pattern: ['^\\d{5}$', 'Bitte fünf Ziffern eingeben.'] }),
    text('city'),
    text('country', { pattern: ['^[A-Z]{2}$', 'Bitte den zweistelligen Ländercode eingeben, z. B. DE.'] }),
    text('phone'),
    text('fax'),
    text('email'),
    {
      name: 'openingHours',
      label: fieldLabel(['openingHours']),
      label_singular: 'Sprechzeit',
      widget: 'list',
      min: 1,
      fields: [
        { name: 'days', label: fieldLabel(['openingHours', 'days']), widget: 'select', multiple: true, min: 1, options: WEEKDAYS },
        text('opens', { label: fieldLabel(['openingHours', 'opens']), pattern: HH_MM }),
        text('closes', { label: fieldLabel(['openingHours', 'closes']), pattern: HH_MM }),
      ],
    },
  ];
}

/** The body of every page: Markdown without images or raw HTML blocks. */
const BODY_FIELD: CmsField = {
  name: 'body',
  label: fieldLabel(['body']),
  widget: 'markdown',
  i18n: true,
  buttons: ['bold', 'italic', 'link', 'heading-two', 'heading-three', 'quote', 'bulleted-list', 'numbered-list'],
  editor_components: [],
  modes: ['rich_text', 'raw'],
};

export function buildCmsConfig() {
  return {
    load_config_file: false,
    backend: { name: 'praxis' },
    locale: 'de',
    // Required by Decap; the editor offers no uploads (the backend refuses them).
    media_folder: 'public/uploads',
    media_library: { name: 'none' },
    i18n: { structure: 'multiple_folders', locales: [...CONTENT_LANGUAGES], default_locale: 'de' },
    collections: [
      ...CONTENT_PAGES.map((page) => ({
        name: page,
        label: PAGE_LABELS[page],
        label_singular: PAGE_LABELS[page],
        folder: virtualFolder(page),
        extension: 'md',
        format: 'frontmatter',
        create: false,
        delete: false,
        i18n: true,
        identifier_field: 'title',
        summary: '{{title}}',
        fields: [...fieldsOf(PAGE_SCHEMAS[page] as unknown as ZodLike, []), BODY_FIELD],
      })),
      {
        name: 'practice',
        label: PRACTICE_LABEL,
        delete: false,
        files: [{ name: 'practice', label: PRACTICE_LABEL, file: PRACTICE_FILE, format: 'json', fields: practiceFields() }],
      },
    ],
  };
}

export type CmsConfig = ReturnType<typeof buildCmsConfig>;
