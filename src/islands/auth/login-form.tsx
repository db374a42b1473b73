/** /auth: admin sign-in (SPEC.md §2 Login, §8). */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { loginSchema, type LoginInput } from '../../lib/auth-schemas';
import { Field, SubmitButton } from '../admin/field';
import { labels } from '../admin/labels';
import { failureText } from '../admin/admin-api';
import { afterSignInPath, authApi, setFlash } from './auth-client';
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
      window.location.assign(afterSignInPath(window.location.search));
    } catch (error) {
      // German whatever the server said: the reason by its problem type (the API's detail is a developer text).
      toast.error(L.failure, { description: failureText(error, L.problems) });
    }
  }

  return (
    <>
      <BackOfficeToaster />
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
        <Field id="login-email" label={L.email} error={errors.email?.message}>
          {(a) => <input {...a} type="email" autoComplete="username" className={inputClass} {...register('email')} />}
        </Field>
        <Field id="login-password" label={L.password} error={errors.password?.message}>
          {(a) => (
            <PasswordInput
              id={a.id}
              autoComplete="current-password"
              invalid={!!a['aria-invalid']}
              describedBy={a['aria-describedby']}
              registration={register('password')}
            />
          )}
        </Field>
        <p className="text-right text-sm">
          <a href="/auth/forgot" className="font-medium text-brand-700 underline">
            {labels.forgot.link}
          </a>
        </p>
        <SubmitButton busy={isSubmitting} label={L.submit} busyLabel={L.submitting} />
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
