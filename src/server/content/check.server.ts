/**
 * Checks a file the content editor wants to save, before anything is
 * written: a page's frontmatter against the same schema the build uses
 * (src/lib/content-schemas.ts), the practice facts against theirs, no field
 * the schema does not know (a misspelt key would otherwise be dropped
 * silently), and no HTML in the Markdown that could run script. Problems
 * are reported in German, each naming its field, because the editor shows
 * them to practice staff as they are.
 */
import yaml from 'js-yaml';
import { isAlias, isNode, parseDocument, visit } from 'yaml';
import { AppError, type FieldErrors } from '../../lib/errors';
import { fieldTrail } from '../../lib/content-fields';
import { contentFileLabel, type ContentFile } from '../../lib/content-files';
import { PAGE_SCHEMAS } from '../../lib/content-schemas';
import { ALLOWED_LINK_SCHEMES, hasHtmlTag, markdownProblems } from '../../lib/markdown-safety';
import { practiceSchema } from '../../lib/practice-schema';

/** A page file as Astro reads it: YAML frontmatter between `---` lines, then Markdown. */
const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/** The largest page the editor saves: the longest page today has about 9 KB. */
export const MAX_FRONTMATTER_CHARS = 32_000;
export const MAX_BODY_CHARS = 100_000;

interface Problem {
  path: Array<string | number>;
  key: string;
  text: string;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  minimum?: number | bigint;
  type?: string;
  origin?: string;
  received?: string;
  input?: unknown;
}

/** One zod issue (zod 3 for pages, zod 4 for the practice facts) in German. */
function problemOf(issue: Issue): Omit<Problem, 'path'> {
  const what = issue.type ?? issue.origin;
  switch (issue.code) {
    case 'invalid_type':
      // zod 3 names what it received; zod 4 reports the input when asked (reportInput below).
      return issue.received === 'undefined' || ('input' in issue && issue.input === undefined)
        ? { key: 'content.errors.required', text: 'fehlt' }
        : { key: 'content.errors.type', text: 'hat die falsche Form (Text, Liste oder Gruppe erwartet)' };
    case 'too_small':
      if (what === 'array') return { key: 'content.errors.tooFew', text: `braucht mindestens ${issue.minimum} Eintrag/Einträge` };
      return Number(issue.minimum) <= 1
        ? { key: 'content.errors.empty', text: 'darf nicht leer sein' }
        : { key: 'content.errors.tooShort', text: `braucht mindestens ${issue.minimum} Zeichen` };
    case 'too_big':
      return { key: 'content.errors.tooLong', text: 'ist zu lang' };
    case 'invalid_string':
    case 'invalid_format':
      return { key: 'content.errors.format', text: 'hat nicht die erwartete Form' };
    case 'invalid_date':
      return { key: 'content.errors.date', text: 'ist kein gültiges Datum (JJJJ-MM-TT)' };
    case 'custom':
      if (issue.message === 'admin.errors.singleLine') return { key: 'content.errors.singleLine', text: 'muss in eine Zeile passen (ohne Zeilenumbruch)' };
      if (issue.message === 'admin.errors.invalidCharacters') {
        return { key: 'content.errors.invalidCharacters', text: 'enthält Zeichen, die nicht erlaubt sind (Steuer- oder Richtungszeichen, „=?“)' };
      }
      if (issue.message === 'content.errors.phone') return { key: 'content.errors.phone', text: 'ist keine Telefonnummer (Ziffern, Leerzeichen, + ( ) / -)' };
      if (issue.message.startsWith('admin.errors.') && issue.message !== 'admin.errors.tooLong') return { key: 'content.errors.empty', text: 'darf nicht leer sein' };
      return { key: 'content.errors.invalid', text: 'ist ungültig' };
    default:
      return { key: 'content.errors.invalid', text: 'ist ungültig' };
  }
}

interface SchemaLike {
  shape?: Record<string, SchemaLike>;
  element?: SchemaLike;
  unwrap?: () => SchemaLike;
  removeDefault?: () => SchemaLike;
  innerType?: () => SchemaLike;
  /** zod 4's definition: zod/mini's wrappers and arrays have no methods, only this. */
  _zod?: { def: { innerType?: SchemaLike; element?: SchemaLike } };
}

/** The schema under optional/default/effects wrappers (zod 3's methods, zod 4's definition). */
function bare(schema: SchemaLike): SchemaLike {
  let s = schema;
  for (let i = 0; i < 8; i++) {
    const next = s.removeDefault?.() ?? s.unwrap?.() ?? s.innerType?.() ?? s._zod?.def.innerType;
    if (!next || next === s) break;
    s = next;
  }
  return s;
}

/** Keys in the data that the schema does not have: a typo the schema alone would drop silently. */
export function unknownKeys(schema: SchemaLike, data: unknown, path: Array<string | number> = [], allowed: string[] = []): Array<Array<string | number>> {
  const s = bare(schema);
  const found: Array<Array<string | number>> = [];
  if (s.shape && typeof s.shape === 'object' && data && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, value] of Object.entries(data)) {
      // Only the schema's own fields: `constructor`, `__proto__` and every
      // other name an object inherits are unknown fields like any typo.
      const field = Object.hasOwn(s.shape, key) ? s.shape[key] : undefined;
      if (!field) {
        if (!(path.length === 0 && allowed.includes(key))) found.push([...path, key]);
      } else found.push(...unknownKeys(field, value, [...path, key]));
    }
  } else if (Array.isArray(data)) {
    const element = s.element ?? s._zod?.def.element;
    if (element) data.forEach((item, i) => found.push(...unknownKeys(element, item, [...path, i])));
  }
  return found;
}

function refuse(file: ContentFile, problems: Problem[]): never {
  const where = contentFileLabel(file);
  const prefix = file.kind === 'page' ? `${file.lang}/${file.page}` : 'practice';
  const errors: FieldErrors = {};
  for (const p of problems) {
    const field = [prefix, ...p.path].join('.');
    (errors[field] ??= []).includes(p.key) || errors[field]!.push(p.key);
  }
  const detail = `${where}: ${problems.map((p) => (p.path.length ? `${fieldTrail(p.path)} ${p.text}` : p.text)).join('; ')}.`;
  throw new AppError('invalid-input', detail, errors);
}

export interface PageParts {
  data: Record<string, unknown>;
  body: string;
}

/**
 * The frontmatter's YAML, refused (400) unless it is plain data: no anchors
 * or aliases (an alias bomb of a few KB expands to many MB), no tags, and
 * within the size limit. Read first with the `yaml` package, which builds
 * the syntax tree without expanding aliases.
 */
function checkYaml(file: ContentFile, source: string): void {
  if (source.length > MAX_FRONTMATTER_CHARS) {
    refuse(file, [{ path: [], key: 'content.errors.tooLarge', text: `Der Kopfbereich ist zu groß (höchstens ${MAX_FRONTMATTER_CHARS.toLocaleString('de-DE')} Zeichen)` }]);
  }
  let plain = true;
  let valid = true;
  try {
    const doc = parseDocument(source, { uniqueKeys: true, prettyErrors: false });
    valid = doc.errors.length === 0;
    visit(doc, (_key, node) => {
      if (isAlias(node) || (isNode(node) && (node.anchor || node.tag))) {
        plain = false;
        return visit.BREAK;
      }
      return undefined;
    });
  } catch {
    valid = false;
  }
  if (!valid) refuse(file, [{ path: [], key: 'content.errors.yaml', text: 'Der Kopfbereich ist kein gültiges YAML' }]);
  if (!plain) refuse(file, [{ path: [], key: 'content.errors.yamlAlias', text: 'Der Kopfbereich enthält YAML-Verweise (&, *) oder Typangaben (!), die nicht erlaubt sind' }]);
}

/** Frontmatter and body of a page file; a 400 when the frontmatter is missing, too large or not plain YAML. */
export function splitPage(file: ContentFile, raw: string): PageParts {
  const match = FRONTMATTER.exec(raw);
  if (!match) refuse(file, [{ path: [], key: 'content.errors.frontmatter', text: 'Der Kopfbereich (zwischen den ---) fehlt' }]);
  checkYaml(file, match[1] ?? '');
  const body = raw.slice(match[0].length);
  if (body.length > MAX_BODY_CHARS) {
    refuse(file, [{ path: ['body'], key: 'content.errors.tooLarge', text: `ist zu lang (höchstens ${MAX_BODY_CHARS.toLocaleString('de-DE')} Zeichen)` }]);
  }
  let data: unknown;
  try {
    // js-yaml's default schema, as Astro's own frontmatter parser uses it.
    data = yaml.load(match[1] ?? '') ?? {};
  } catch {
    refuse(file, [{ path: [], key: 'content.errors.yaml', text: 'Der Kopfbereich ist kein gültiges YAML' }]);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    refuse(file, [{ path: [], key: 'content.errors.yaml', text: 'Der Kopfbereich enthält keine Felder' }]);
  }
  return { data: data as Record<string, unknown>, body };
}

/** Paths of the text fields holding an HTML tag: the pages show them as text, so a tag is a mistake. */
function htmlInFields(data: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof data === 'string') return hasHtmlTag(data) ? [path] : [];
  if (Array.isArray(data)) return data.flatMap((item, i) => htmlInFields(item, [...path, i]));
  if (data && typeof data === 'object') return Object.entries(data).flatMap(([k, v]) => htmlInFields(v, [...path, k]));
  return [];
}

/** The body's raw HTML and disallowed links, each a problem of the field "Text der Seite". */
export function bodyProblems(body: string): Problem[] {
  return markdownProblems(body).map((p) =>
    p.kind === 'characters'
      ? {
          path: ['body'],
          key: 'content.errors.invalidCharacters',
          text: `enthält unsichtbare Zeichen oder Steuerzeichen (auch als &#…; geschrieben${p.line ? `, Zeile ${p.line}` : ''}), die nicht erlaubt sind`,
        }
      : p.kind === 'html'
      ? { path: ['body'], key: 'content.errors.html', text: `enthält HTML-Code (${p.excerpt}${p.line ? `, Zeile ${p.line}` : ''}); HTML ist nicht erlaubt, bitte nur Text und die Knöpfe des Editors verwenden` }
      : {
          path: ['body'],
          key: 'content.errors.link',
          text: `enthält einen Link mit nicht erlaubtem Ziel (${p.excerpt}${p.line ? `, Zeile ${p.line}` : ''}); erlaubt sind ${ALLOWED_LINK_SCHEMES.join(':, ')}: und Adressen dieser Website`,
        },
  );
}

function parsePractice(file: ContentFile, raw: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    refuse(file, [{ path: [], key: 'content.errors.json', text: 'Die Datei ist kein gültiges JSON' }]);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    refuse(file, [{ path: [], key: 'content.errors.json', text: 'Die Datei enthält keine Angaben' }]);
  }
  return data as Record<string, unknown>;
}

/** Refuses (400) a file that the build would refuse, that carries unknown fields or unsafe HTML. */
export function checkContent(file: ContentFile, raw: string): void {
  const problems: Problem[] = [];
  let data: Record<string, unknown>;
  let schema: SchemaLike & { safeParse(d: unknown, params?: { reportInput?: boolean }): { success: boolean; error?: { issues: Issue[] } } };
  if (file.kind === 'page') {
    const parts = splitPage(file, raw);
    data = parts.data;
    schema = PAGE_SCHEMAS[file.page] as unknown as typeof schema;
    problems.push(...bodyProblems(parts.body));
    for (const fieldPath of htmlInFields(data)) {
      problems.push({ path: fieldPath, key: 'content.errors.html', text: 'enthält HTML-Code; HTML ist nicht erlaubt, der Text erscheint so, wie er hier steht' });
    }
  } else {
    data = parsePractice(file, raw);
    schema = practiceSchema as unknown as typeof schema;
  }
  // The input each issue is about (never shown or logged: content the editor wrote) tells a missing field from a wrong one.
  const result = schema.safeParse(data, { reportInput: true });
  if (!result.success) {
    for (const issue of result.error!.issues) {
      problems.push({ path: issue.path.filter((p): p is string | number => typeof p !== 'symbol'), ...problemOf(issue) });
    }
  }
  for (const path of unknownKeys(schema, data, [], file.kind === 'practice' ? ['$comment'] : [])) {
    problems.push({ path, key: 'content.errors.unknownField', text: 'ist kein bekanntes Feld (Tippfehler im Feldnamen?)' });
  }
  if (problems.length > 0) refuse(file, problems);
}
