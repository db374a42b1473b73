/** /auth/forgot: "Passwort vergessen". The answer is the same whether or not the address has an account. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { forgotPasswordSchema, type ForgotPasswordInput } from '../../lib/account-schemas';
import { Field, SubmitButton } from '../admin/shared/field';
import { labels } from '../admin/shared/labels';
import { ApiError, authApi } from './auth-client';
import { inputClass } from './password-input';

const L = labels.forgot;

export default function ForgotPasswordForm() {
  const [outcome, setOutcome] = useState<'sent' | 'rate-limited' | 'failed' | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordInput>({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });

  async function onSubmit(values: ForgotPasswordInput) {
    try {
      await authApi.forgot(values.email);
      setOutcome('sent');
    } catch (error) {
      setOutcome(error instanceof ApiError && error.status === 429 ? 'rate-limited' : 'failed');
    }
  }

  if (outcome === 'sent') {
    return (
      <div role="status" className="space-y-4">
        <p className="rounded-md bg-brand-50 p-4 text-brand-900">{L.sent}</p>
        <a href="/auth" className="font-medium text-brand-700 underline">
          {L.toLogin}
        </a>
      </div>
    );
  }

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <Field id="forgot-email" label={L.email} error={errors.email?.message}>
        {(a) => <input {...a} type="email" autoComplete="username" className={inputClass} {...register('email')} />}
      </Field>
      {outcome && (
        <p role="alert" className="text-sm text-red-700">
          {outcome === 'rate-limited' ? L.rateLimited : L.failure}
        </p>
      )}
      <SubmitButton busy={isSubmitting} label={L.submit} busyLabel={L.submitting} />
      <p className="text-center text-sm">
        <a href="/auth" className="font-medium text-brand-700 underline">
          {L.toLogin}
        </a>
      </p>
    </form>
  );
}
