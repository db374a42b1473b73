/** /auth: admin sign-in (SPEC.md §2 Login, §8). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { loginSchema, type LoginInput } from '../../lib/auth-schemas';
import { errorText, labels } from '../admin/labels';
import { authApi, setFlash } from './auth-client';
import { BackOfficeToaster } from './toaster';
import { inputClass, PasswordInput } from './password-input';

const L = labels.login;

export default function LoginForm() {
  const [adminExists, setAdminExists] = useState<boolean | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });

  useEffect(() => {
    // SPEC.md §2: on load the page also checks whether any admin exists.
    authApi
      .status()
      .then((s) => setAdminExists(s.adminExists))
      .catch(() => setAdminExists(null));
  }, []);

  async function onSubmit(values: LoginInput) {
    try {
      await authApi.login(values.email, values.password);
      setFlash({ title: L.success });
      window.location.assign('/admin');
    } catch (error) {
      toast.error(L.failure, { description: error instanceof Error ? error.message : labels.setup.unknownError });
    }
  }

  return (
    <>
      <BackOfficeToaster />
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
        <div>
          <label htmlFor="login-email" className="block text-sm font-medium">
            {L.email}
          </label>
          <input
            id="login-email"
            type="email"
            autoComplete="username"
            className={inputClass}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={errors.email ? 'login-email-error' : undefined}
            {...register('email')}
          />
          {errors.email && (
            <p id="login-email-error" className="mt-1 text-sm text-red-700">
              {errorText(errors.email.message)}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="login-password" className="block text-sm font-medium">
            {L.password}
          </label>
          <PasswordInput
            id="login-password"
            autoComplete="current-password"
            invalid={!!errors.password}
            describedBy={errors.password ? 'login-password-error' : undefined}
            registration={register('password')}
          />
          {errors.password && (
            <p id="login-password-error" className="mt-1 text-sm text-red-700">
              {errorText(errors.password.message)}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={isSubmitting}
          className="w-full rounded-md bg-brand-700 px-4 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-60"
        >
          {isSubmitting ? L.submitting : L.submit}
        </button>
        {adminExists === false && (
          <p className="text-center text-sm text-slate-600">
            {L.noAdminYet}{' '}
            <a href="/admin-setup" className="font-medium text-brand-700 underline">
              {L.toSetup}
            </a>
          </p>
        )}
      </form>
    </>
  );
}
