/**
 * A sentence that names the consultation type (a t() text with `{{type}}`),
 * the name inside `<span lang="de">` when it is the German one standing in on
 * an English page (src/lib/type-text.ts, docs/decisions/030). Otherwise the
 * plain sentence, so German pages and English names render as before.
 */
import { Fragment, type ReactNode } from 'react';
import type { LocalizedTypeName } from '../../lib/type-text';

/** Never in a translation: marks where the name goes. */
const SLOT = '\uE000';

export function sentenceWithTypeName(sentence: (type: string) => string, name: LocalizedTypeName): ReactNode {
  if (!name.lang) return sentence(name.text);
  const parts = sentence(SLOT).split(SLOT);
  if (parts.length === 1) return parts[0];
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <span lang={name.lang}>{name.text}</span>}
          {part}
        </Fragment>
      ))}
    </>
  );
}
