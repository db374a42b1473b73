/** /admin-setup: the first admin (SPEC.md §2 Admin setup, §8). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { adminSetupSchema, type AdminSetupInput } from '../../lib/auth-schemas';
import { errorText, labels } from '../admin/labels';
import { ApiError, authApi, setFlash } from './auth-client';
import { inputClass, PasswordInput } from './password-input';
import { BackOfficeToaster } from './toaster';

const L = labels.setup;

export default function AdminSetupForm() {
  const [hint, setHint] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AdminSetupInput>({
    resolver: zodResolver(adminSetupSchema),
    defaultValues: { email: '', password: '', adminSecret: '' },
  });

  useEffect(() => {
    authApi
      .status()
      .then((s) => {
        // Setup is only for a site without an admin.
        if (s.adminExists) window.location.replace('/auth');
        else {
          setHint(s.setupHint);
          setChecked(true);
        }
      })
      .catch(() => setChecked(true));
  }, []);

  async function onSubmit(values: AdminSetupInput) {
    try {
      await authApi.setup(values.email, values.password, values.adminSecret);
      setFlash({ title: L.success, description: L.successText });
      window.location.assign('/auth');
    } catch (error) {
      if (error instanceof ApiError) toast.error(L.failure, { description: error.message });
      else toast.error(L.error, { description: L.unknownError });
    }
  }

  const field = (name: keyof AdminSetupInput) => ({
    invalid: !!errors[name],
    describedBy: errors[name] ? `setup-${name}-error` : undefined,
  });
  const message = (name: keyof AdminSetupInput) =>
    errors[name] && (
      <p id={`setup-${name}-error`} className="mt-1 text-sm text-red-700">
        {errorText(errors[name]?.message)}
      </p>
    );

  return (
    <>
      <BackOfficeToaster />
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4" aria-busy={!checked}>
        <div>
          <label htmlFor="setup-email" className="block text-sm font-medium">
            {L.email}
          </label>
          <input
            id="setup-email"
            type="email"
            autoComplete="username"
            className={inputClass}
            aria-invalid={field('email').invalid || undefined}
            aria-describedby={field('email').describedBy}
            {...register('email')}
          />
          {message('email')}
        </div>
        <div>
          <label htmlFor="setup-password" className="block text-sm font-medium">
            {L.password}
          </label>
          <PasswordInput id="setup-password" autoComplete="new-password" {...field('password')} registration={register('password')} />
          {message('password')}
        </div>
        <div>
          <label htmlFor="setup-secret" className="block text-sm font-medium">
            {L.adminSecret}
          </label>
          <input
            id="setup-secret"
            type="password"
            autoComplete="off"
            className={inputClass}
            aria-invalid={field('adminSecret').invalid || undefined}
            aria-describedby={[field('adminSecret').describedBy, hint ? 'setup-secret-hint' : undefined].filter(Boolean).join(' ') || undefined}
            {...register('adminSecret')}
          />
          {hint && (
            <p id="setup-secret-hint" className="mt-1 text-sm text-slate-600">
              {L.hint(hint)}
            </p>
          )}
          {message('adminSecret')}
        </div>
        <button
          type="submit"
          disabled={isSubmitting}
          className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {isSubmitting ? L.submitting : L.submit}
        </button>
        <p className="text-center text-sm text-slate-600">
          {L.haveAccount}{' '}
          <a href="/auth" className="font-medium text-brand-700 underline">
            {L.toLogin}
          </a>
        </p>
      </form>
    </>
  );
}
