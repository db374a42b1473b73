/**
 * The editor's preview of a page, in the site's styles (Tailwind and the
 * Markdown typography of the real pages): the page's heading, its
 * sections, cards and lists in the order of the form, then the Markdown
 * text. One component serves every page and the practice facts: it follows
 * the entry's fields, so a field added to a schema shows up here as well.
 */
import type { ReactNode } from 'react';
import { fieldLabel } from '../../lib/content-fields';

type Value = string | number | boolean | null | undefined | Date | Value[] | { [key: string]: Value };

/** Keys shown as a heading of their group rather than as text. */
const HEADING_KEYS = ['heading', 'title', 'name'];
/** Keys whose text labels a button on the page. */
const BUTTON_KEY = /(Label|buttonLabel)$/;
/** Shown above the page, not in it. */
const META_KEYS = new Set(['title', 'description', 'body', 'aboutHeading', '$comment']);

interface EntryLike {
  getIn(path: string[]): { toJS(): Record<string, Value> } | undefined;
}

/** A form field as Decap hands it to the preview: its name and, for groups and lists, its fields. */
interface FieldConfig {
  name: string;
  fields?: FieldConfig[];
}

export interface PreviewProps {
  entry: EntryLike;
  /** The collection's fields (an Immutable List): the order of the form. */
  fields?: { toJS(): FieldConfig[] };
  widgetFor: (name: string) => ReactNode;
}

/**
 * The entry's values in the order of the form: Decap keeps them in an
 * Immutable Map, whose order past eight keys is a hash's, not the file's.
 */
function ordered(value: { [key: string]: Value }, fields: FieldConfig[] | undefined): Array<[string, Value, FieldConfig | undefined]> {
  const known = (fields ?? []).filter((f) => f.name in value).map((f): [string, Value, FieldConfig] => [f.name, value[f.name], f]);
  const rest = Object.entries(value)
    .filter(([k]) => !fields?.some((f) => f.name === k))
    .map(([k, v]): [string, Value, undefined] => [k, v, undefined]);
  return [...known, ...rest];
}

function isObject(v: Value): v is { [key: string]: Value } {
  return !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);
}

function text(v: Value): string {
  if (v instanceof Date) return v.toLocaleDateString('de-DE');
  return v === null || v === undefined ? '' : String(v);
}

function Group({ value, path, level, fields }: { value: { [key: string]: Value }; path: string[]; level: number; fields?: FieldConfig[] }) {
  const headingKey = HEADING_KEYS.find((k) => typeof value[k] === 'string' && value[k] !== '');
  const Heading = level <= 2 ? 'h2' : 'h3';
  return (
    <>
      {headingKey && <Heading className={level <= 2 ? 'text-2xl font-bold text-slate-900' : 'text-lg font-semibold text-slate-900'}>{text(value[headingKey])}</Heading>}
      {ordered(value, fields)
        .filter(([k]) => k !== headingKey)
        .map(([k, v, field]) => (
          <Field key={k} name={k} value={v} path={[...path, k]} level={level + 1} fields={field?.fields} />
        ))}
    </>
  );
}

function Field({ name, value, path, level, fields }: { name: string; value: Value; path: string[]; level: number; fields?: FieldConfig[] }): ReactNode {
  if (value === null || value === undefined || value === '') return null;
  if (Array.isArray(value)) {
    if (value.every((v) => !isObject(v))) {
      return (
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-700">
          {value.map((v, i) => (
            <li key={i}>{text(v)}</li>
          ))}
        </ul>
      );
    }
    return (
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {value.map((v, i) => (
          <div key={i} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            {isObject(v) ? <Group value={v} path={path} level={level + 1} fields={fields} /> : text(v)}
          </div>
        ))}
      </div>
    );
  }
  if (isObject(value)) {
    return (
      <section className={level <= 2 ? 'mt-8 border-t border-slate-200 pt-6' : 'mt-3'}>
        <Group value={value} path={path} level={level} fields={fields} />
      </section>
    );
  }
  if (BUTTON_KEY.test(name)) {
    return <span className="mt-3 mr-2 inline-block rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white">{text(value)}</span>;
  }
  return (
    <p className="mt-2 text-slate-700" title={fieldLabel(path)}>
      {text(value)}
    </p>
  );
}

export function PagePreview({ entry, fields, widgetFor }: PreviewProps) {
  const data = entry.getIn(['data'])?.toJS() ?? {};
  const form = fields?.toJS();
  return (
    <main className="mx-auto max-w-5xl bg-white px-6 py-8 font-sans text-slate-800">
      {typeof data.title === 'string' && (
        <p className="mb-6 rounded-md bg-slate-100 px-3 py-2 text-xs text-slate-600">
          Browser-Tab: {data.title}
          {typeof data.description === 'string' && <span className="mt-1 block">Suchmaschinen: {data.description}</span>}
        </p>
      )}
      {typeof data.heading === 'string' && <h1 className="text-3xl font-bold text-slate-900">{data.heading}</h1>}
      <Group value={Object.fromEntries(Object.entries(data).filter(([k]) => !META_KEYS.has(k) && k !== 'heading'))} path={[]} level={1} fields={form} />
      {data.body !== undefined && (
        <section className="mt-8 border-t border-slate-200 pt-6">
          {typeof data.aboutHeading === 'string' && <h2 className="mb-4 text-2xl font-bold text-slate-900">{data.aboutHeading}</h2>}
          <div className="markdown-body">{widgetFor('body')}</div>
        </section>
      )}
    </main>
  );
}
