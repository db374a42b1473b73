/**
 * The email-domain hint in a React form (docs/decisions/035; the plain
 * pages use src/lib/email-hint-dom.ts): checked when the field is left, the
 * checker loaded only then; "Meinten Sie erika@gmail.com?" with one button
 * that takes it. A hint, never a block.
 */
import { useCallback, useState } from 'react';
import { afterPointerRelease } from '../../lib/email-hint-dom';

export function useEmailHint() {
  const [hint, setHint] = useState<string | null>(null);
  const check = useCallback(async (value: string) => {
    const { emailDomainHint } = await import('../../lib/email-hint');
    const suggestion = emailDomainHint(value);
    // Not under a held pointer: the click that left the field must land where it was aimed.
    afterPointerRelease(() => setHint(suggestion));
  }, []);
  const clear = useCallback(() => setHint(null), []);
  return { hint, check, clear };
}

export function EmailHintLine({
  id,
  hint,
  didYouMean,
  accept,
  onAccept,
}: {
  id: string;
  hint: string | null;
  /** "Meinten Sie {{email}}?" */
  didYouMean: string;
  accept: string;
  onAccept: (email: string) => void;
}) {
  if (!hint) return null;
  const [before, after = ''] = didYouMean.split(/\{\{?email\}\}?/);
  return (
    <p id={id} role="status" className="mt-1 text-sm text-slate-800">
      {before}
      <strong>{hint}</strong>
      {after}
      <button
        type="button"
        onClick={() => onAccept(hint)}
        className="ml-2 rounded border border-brand-700 px-2 py-0.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
      >
        {accept}
      </button>
    </p>
  );
}
