/**
 * A save changes only the lines of the fields that changed
 * (docs/decisions/031-content-editor-second-pass.md). The editor (Decap)
 * sends each file re-serialised: its own YAML quoting, folded lines, list
 * markers and Markdown escapes. Written as is, one changed heading was a
 * diff of the whole file. Instead the save is applied to the file as it is:
 *
 * - the fields are compared (YAML read with the `yaml` package, which keeps
 *   every node's place in the text), and each changed text is replaced
 *   where it stands, in the quoting it had; a changed list length or an
 *   added or removed field is set in the parsed document, which keeps the
 *   comments, order and style of the rest;
 * - the Markdown body stays byte for byte unless its content changed
 *   (compared as parsed Markdown, so rewrapping, `*` for `-` or escapes
 *   are no change);
 * - practice.json the same way: a changed value is replaced in place.
 *
 * The result is read back and must say exactly what the editor sent;
 * otherwise the editor's text is written (correct, only not minimal).
 */
import { isDeepStrictEqual } from 'node:util';
import jsYaml from 'js-yaml';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { Document, isScalar, parseDocument, Scalar } from 'yaml';
import type { ContentFile } from '../../lib/content-files';

export type FieldPath = Array<string | number>;

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

interface Change {
  path: FieldPath;
  /** A scalar replaced by a scalar: spliced in place. */
  scalar: boolean;
  removed: boolean;
  value: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The changes turning `a` into `b`, as deep as both keep the same shape. */
export function diffFields(a: unknown, b: unknown, path: FieldPath = []): Change[] {
  if (isRecord(a) && isRecord(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    return keys.flatMap((key) => {
      if (!Object.hasOwn(b, key)) return [{ path: [...path, key], scalar: false, removed: true, value: undefined }];
      if (!Object.hasOwn(a, key)) return [{ path: [...path, key], scalar: false, removed: false, value: b[key] }];
      return diffFields(a[key], b[key], [...path, key]);
    });
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((item, i) => diffFields(item, b[i], [...path, i]));
  }
  if (isDeepStrictEqual(a, b)) return [];
  const plain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  return [{ path, scalar: plain(a) && plain(b), removed: false, value: b }];
}

/** A Markdown tree without positions, with whitespace runs as one space and no loose/tight distinction. */
function normalisedMarkdown(markdown: string): unknown {
  const strip = (node: Record<string, unknown>): unknown => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'position' || key === 'spread') continue;
      if (key === 'children' && Array.isArray(value)) out.children = value.map((c) => strip(c as Record<string, unknown>));
      else if (key === 'value' && typeof value === 'string') out.value = value.replace(/\s+/g, ' ').trim();
      else out[key] = value;
    }
    return out;
  };
  return strip(fromMarkdown(markdown) as unknown as Record<string, unknown>);
}

/** Whether two Markdown bodies say the same, however differently they are written. */
export function sameMarkdown(a: string, b: string): boolean {
  return a.trim() === b.trim() || isDeepStrictEqual(normalisedMarkdown(a), normalisedMarkdown(b));
}

/** The text of a new scalar value in the style of the one it replaces. */
function scalarSource(value: unknown, old: Scalar, json: boolean): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (json || old.type === 'QUOTE_DOUBLE' || /[\n\r]/.test(value)) return JSON.stringify(value);
  if (old.type === 'QUOTE_SINGLE') return `'${value.replaceAll("'", "''")}'`;
  const plain = new Document(value).toString({ lineWidth: 0 }).trimEnd();
  return plain.includes('\n') ? JSON.stringify(value) : plain;
}

/**
 * `source` (YAML or JSON) with `changes` applied: scalars spliced in place
 * when every change is one, else set in the parsed document.
 */
function applyChanges(source: string, changes: Change[], json: boolean): string | null {
  const doc = parseDocument(source, { keepSourceTokens: false });
  if (doc.errors.length > 0) return null;
  const splices: Array<{ start: number; end: number; text: string }> = [];
  for (const change of changes) {
    const node = change.scalar ? doc.getIn(change.path, true) : undefined;
    if (!isScalar(node) || !node.range) {
      splices.length = 0;
      break;
    }
    splices.push({ start: node.range[0], end: node.range[1], text: scalarSource(change.value, node, json) });
  }
  if (splices.length === changes.length) {
    let out = source;
    for (const s of splices.sort((x, y) => y.start - x.start)) out = out.slice(0, s.start) + s.text + out.slice(s.end);
    return out;
  }
  if (json) return null;
  for (const change of changes) {
    if (change.removed) doc.deleteIn(change.path);
    else doc.setIn(change.path, doc.createNode(change.value));
  }
  return doc.toString({ lineWidth: 0, indentSeq: /\n {2,}- /.test(source) }).replace(/\n$/, '');
}

export interface Merged {
  /** The file to write. */
  content: string;
  /** The fields that changed ('body' for the Markdown text); empty when nothing did. */
  changed: FieldPath[];
}

function mergePage(current: string, saved: string): Merged {
  const cur = FRONTMATTER.exec(current);
  const sav = FRONTMATTER.exec(saved);
  if (!cur || !sav) return { content: saved, changed: [[]] };
  const curFront = cur[1] ?? '';
  const before = parseDocument(curFront).toJS() as unknown;
  const after = parseDocument(sav[1] ?? '').toJS() as unknown;
  const changes = diffFields(before, after);
  const curBody = current.slice(cur[0].length);
  const savBody = saved.slice(sav[0].length);
  const bodyChanged = !sameMarkdown(curBody, savBody);
  const changed: FieldPath[] = [...changes.map((c) => c.path), ...(bodyChanged ? [['body']] : [])];
  if (changed.length === 0) return { content: current, changed };

  const front = changes.length > 0 ? applyChanges(curFront, changes, false) : curFront;
  const frontStart = cur[0].indexOf('\n') + 1;
  const body = bodyChanged ? savBody : curBody;
  let content = front === null ? saved : current.slice(0, frontStart) + front + current.slice(frontStart + curFront.length, cur[0].length) + body;
  if (!content.endsWith('\n')) content += '\n';
  // Read back as the build reads it: it must say what the editor sent.
  const check = FRONTMATTER.exec(content);
  const same = check && isDeepStrictEqual(jsYaml.load(check[1] ?? ''), jsYaml.load(sav[1] ?? '')) && sameMarkdown(content.slice(check[0].length), savBody);
  return { content: same ? content : saved.endsWith('\n') ? saved : `${saved}\n`, changed };
}

function mergePractice(current: string, saved: string): Merged {
  const before = JSON.parse(current) as Record<string, unknown>;
  const after = JSON.parse(saved) as Record<string, unknown>;
  // The file's `$comment` (a note for developers) is not a form field.
  if (before.$comment !== undefined && after.$comment === undefined) after.$comment = before.$comment;
  const changes = diffFields(before, after);
  const changed = changes.map((c) => c.path);
  if (changes.length === 0) return { content: current, changed };
  const spliced = applyChanges(current, changes, true);
  const ok = spliced !== null && isDeepStrictEqual(JSON.parse(spliced), after);
  const content = ok ? spliced : `${JSON.stringify({ $comment: after.$comment, ...after }, null, 2)}\n`;
  return { content: content.endsWith('\n') ? content : `${content}\n`, changed };
}

/** The file to write for a save of `saved` over `current`, and which fields changed. */
export function mergeSave(file: ContentFile, current: string, saved: string): Merged {
  return file.kind === 'practice' ? mergePractice(current, saved) : mergePage(current, saved);
}
