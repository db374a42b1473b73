/**
 * /auth/reset?token=…: sets a password from a reset or invitation link
 * (single-use; 30 minutes for a reset, 48 hours for an invitation), then
 * sends the user to sign in.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import * as z from '../../lib/zod';
import { newPassword } from '../../lib/account-schemas';
import { Field, SubmitButton } from '../admin/shared/field';
import { labels } from '../admin/shared/labels';
import { ApiError, authApi, setFlash } from './auth-client';
import { inputClass, PasswordInput } from './password-input';

const L = labels.reset;
const formSchema = z.object({ password: newPassword });
type FormValues = z.infer<typeof formSchema>;

function tokenFromUrl(): string {
  return new URLSearchParams(window.location.search).get('token') ?? '';
}

export default function ResetPasswordForm() {
  const [token] = useState(tokenFromUrl);
  const [problem, setProblem] = useState<'invalid' | 'failed' | null>(/^[A-Za-z0-9_-]{43}$/.test(token) ? null : 'invalid');
  // The account the link is for, named on the page (and filed by password managers under it).
  const [account, setAccount] = useState<{ purpose: 'reset' | 'invitation'; email: string } | null>(null);
  useEffect(() => {
    if (problem === 'invalid') return;
    authApi.linkAccount(token).then(setAccount, (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) setProblem('invalid');
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: { password: '' } });

  async function onSubmit(values: FormValues) {
    try {
      await authApi.reset(token, values.password);
      setFlash({ title: L.success, description: L.successText });
      window.location.assign('/auth');
    } catch (error) {
      // A password the server refuses (a common one): said at the field, the link stays usable.
      const passwordError = error instanceof ApiError ? error.fieldErrors?.password?.[0] : undefined;
      if (passwordError) setError('password', { message: passwordError });
      else setProblem(error instanceof ApiError && (error.status === 404 || error.status === 400) ? 'invalid' : 'failed');
    }
  }

  if (problem === 'invalid') {
    return (
      <div role="alert" className="space-y-4">
        <p className="rounded-md bg-red-50 p-4 text-red-800">{L.invalidLink}</p>
        <a href="/auth/forgot" className="font-medium text-brand-700 underline">
          {L.requestNew}
        </a>
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      {account && (
        <>
          <p className="font-medium text-slate-800">{account.purpose === 'invitation' ? L.invitationFor(account.email) : L.resetFor(account.email)}</p>
          <Field id="reset-account" label={L.account}>
            {(a) => <input {...a} type="email" autoComplete="username" readOnly value={account.email} className={`${inputClass} bg-slate-50`} />}
          </Field>
        </>
      )}
      <Field id="reset-password" label={L.password} error={errors.password?.message} hint={labels.passwordRules}>
        {(a) => (
          <PasswordInput id={a.id} autoComplete="new-password" invalid={!!a['aria-invalid']} describedBy={a['aria-describedby']} registration={register('password')} />
        )}
      </Field>
      {problem === 'failed' && (
        <p role="alert" className="text-sm text-red-700">
          {L.failure}
        </p>
      )}
      <SubmitButton busy={isSubmitting} label={L.submit} busyLabel={L.submitting} />
    </form>
  );
}
