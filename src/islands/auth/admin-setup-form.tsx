/** /admin-setup: the first admin. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { adminSetupSchema, type AdminSetupInput } from '../../lib/auth-schemas';
import { Field, SubmitButton } from '../admin/shared/field';
import { labels } from '../admin/shared/labels';
import { failureText } from '../admin/shared/admin-api';
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
    setError,
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
      // Field errors (a common password) are said at their fields.
      for (const [field, keys] of Object.entries(error instanceof ApiError ? (error.fieldErrors ?? {}) : {})) {
        setError(field as keyof AdminSetupInput, { message: keys[0] });
      }
      toast.error(L.failure, { description: failureText(error, L.problems) });
    }
  }


  return (
    <>
      <BackOfficeToaster />
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4" aria-busy={!checked}>
        <Field id="setup-email" label={L.email} error={errors.email?.message}>
          {(a) => <input {...a} type="email" autoComplete="username" className={inputClass} {...register('email')} />}
        </Field>
        <Field id="setup-password" label={L.password} error={errors.password?.message} hint={labels.passwordRules}>
          {(a) => (
            <PasswordInput
              id={a.id}
              autoComplete="new-password"
              invalid={!!a['aria-invalid']}
              describedBy={a['aria-describedby']}
              registration={register('password')}
            />
          )}
        </Field>
        <Field id="setup-secret" label={L.adminSecret} error={errors.adminSecret?.message} hint={hint ? L.hint(hint) : undefined}>
          {(a) => <input {...a} type="password" autoComplete="off" className={inputClass} {...register('adminSecret')} />}
        </Field>
        <SubmitButton busy={isSubmitting} label={L.submit} busyLabel={L.submitting} />
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
