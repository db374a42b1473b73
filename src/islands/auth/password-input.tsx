import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { labels } from '../admin/shared/labels';
import { Field } from '../admin/shared/field';

export const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-1 focus:ring-brand-600 aria-[invalid=true]:border-red-600';

/** A password field with a show/hide toggle: registered with a form (`registration`) or controlled (`value`, `onChange`). */
export function PasswordInput(
  props: {
    id: string;
    autoComplete: string;
    invalid: boolean;
    describedBy?: string;
  } & ({ registration: UseFormRegisterReturn } | { value: string; onChange: (value: string) => void }),
) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input
        id={props.id}
        type={visible ? 'text' : 'password'}
        autoComplete={props.autoComplete}
        className={`${inputClass} pr-11`}
        aria-invalid={props.invalid ? true : undefined}
        aria-describedby={props.describedBy}
        {...('registration' in props ? props.registration : { value: props.value, onChange: (e: { target: { value: string } }) => props.onChange(e.target.value) })}
      />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? labels.login.hidePassword : labels.login.showPassword}
        aria-pressed={visible}
        className="absolute inset-y-0 right-0 mt-1 flex w-10 items-center justify-center text-slate-500 hover:text-slate-800"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
          <circle cx="12" cy="12" r="3" />
          {visible && <path d="M3 3l18 18" />}
        </svg>
      </button>
    </div>
  );
}

/** A controlled field in its labelled Field: what both proof fields below take. */
interface ProofFieldProps {
  id: string;
  label: string;
  hint?: string;
  required?: boolean;
  error?: string;
  value: string;
  onChange: (value: string) => void;
}

/** The "current password" field that proves a change to the account (a controlled PasswordInput in its labelled Field). */
export function CurrentPasswordField({
  id,
  label,
  hint,
  required,
  error,
  value,
  onChange,
}: ProofFieldProps) {
  return (
    <Field id={id} label={label} required={required} error={error} hint={hint}>
      {(a) => <PasswordInput id={a.id} autoComplete="current-password" invalid={!!a['aria-invalid']} describedBy={a['aria-describedby']} value={value} onChange={onChange} />}
    </Field>
  );
}

/** The code (from the app, or a recovery code) that proves a change to the account beside the password. */
export function ProofCodeField({
  id,
  label,
  hint,
  required,
  error,
  value,
  onChange,
}: ProofFieldProps) {
  return (
    <Field id={id} label={label} required={required} error={error} hint={hint}>
      {(a) => (
        <input
          {...a}
          autoComplete="one-time-code"
          spellCheck={false}
          className={`${inputClass} max-w-xs font-mono`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
