/**
 * The one rule for every text staff type into the back office (the patient
 * text rules apply to every admin text field: docs/decisions/015). A type name, a block reason or an item name ends up in
 * email subjects, calendar files and printed lists, so it is held to what a
 * patient's name is: NFC, no control, format (bidi marks included),
 * noncharacter or line-separator characters, no
 * RFC 2047 encoded word (`=?`), and a single line. Multi-line fields
 * (descriptions, notes: textareas) may hold LF or CRLF line breaks like a
 * contact message, nothing else.
 *
 * Every text field of src/lib/admin-schemas.ts is built with `adminText`
 * or `optionalAdminText` (there as `requiredText` / `optionalText`;
 * tests/unit/admin-text-fields.test.ts walks them all), so a new field
 * picks the rules up by using them.
 */
import * as z from './zod';
import { hasEncodedWord, hasHiddenCharacter, hasLineBreak, isCleanLine, isCleanText, trimSpaces, visibleLength } from './text-input';

export interface AdminTextOptions {
  /** A textarea: LF and CRLF line breaks allowed. */
  multiline?: boolean;
}

/** The rules of one text after trimming and NFC: length, a single line unless multi-line, printable only. */
function rules(max: number, multiline: boolean) {
  return z
    .string({ error: 'admin.errors.invalid' })
    .check(
      z.maxLength(max, 'admin.errors.tooLong'),
      z.refine((v) => multiline || !hasLineBreak(v), { message: 'admin.errors.singleLine', abort: true }),
      z.refine((v) => (multiline ? isCleanText(v) && !hasEncodedWord(v) : isCleanLine(v)), { message: 'admin.errors.invalidCharacters', abort: true }),
    );
}

const normalise = (v: string) => trimSpaces(v).normalize('NFC');

/** A required admin text: `requiredKey` when empty (nothing visible), at most `max` characters. */
export function adminText(requiredKey: string, max: number, { multiline = false }: AdminTextOptions = {}) {
  return z.pipe(
    z.pipe(z.string({ error: requiredKey }), z.transform(normalise)),
    rules(max, multiline).check(z.refine((v) => visibleLength(v) >= 1, requiredKey)),
  );
}

/** An optional admin text: missing, null or nothing visible become null (saved as null when empty). */
export function optionalAdminText(max: number, { multiline = false }: AdminTextOptions = {}) {
  return z.pipe(
    z.pipe(
      z.nullish(z.string({ error: 'admin.errors.invalid' })),
      // Nothing visible is empty, unless it hides a format character or noncharacter: that is refused, not dropped.
      z.transform((v) => (v == null || (visibleLength(v) === 0 && !hasHiddenCharacter(v)) ? null : normalise(v))),
    ),
    z.nullable(rules(max, multiline)),
  );
}
