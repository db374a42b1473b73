/**
 * A labelled form field with its hint and error, wired for assistive tech
 * (aria-invalid, aria-describedby, aria-required). Used by the back office
 * and the sign-in forms; kept apart from ui.tsx so the sign-in pages do not
 * bundle the dialogs.
 */
import type { ReactNode } from 'react';
import { errorText } from './labels';

/** A labelled control with its error announced through aria-describedby. */
export function Field({
  id,
  label,
  required,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  hint?: string;
  children: (props: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string; 'aria-required'?: true }) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
        {required && (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        )}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, 'aria-required': required ? true : undefined })}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {errorText(error)}
        </p>
      )}
    </div>
  );
}

/** The full-width submit button of the sign-in and password forms; says it is busy while the form is sent. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button
      type="submit"
      disabled={busy}
      className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
    >
      {busy ? busyLabel : label}
    </button>
  );
}

/** The options of a back-office form's appointment type picker, optionally after an "all types" option. */
export function TypeOptions({ types, all }: { types: ReadonlyArray<{ id: string; name: string }>; all?: { value: string; label: string } }) {
  return (
    <>
      {all && <option value={all.value}>{all.label}</option>}
      {types.map((t) => (
        <option key={t.id} value={t.id}>
          {t.name}
        </option>
      ))}
    </>
  );
}
