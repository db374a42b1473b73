/** "Passwort ändern": the signed-in user's own password; the other sessions end. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { passwordChangeSchema, type PasswordChangeInput } from '../../../lib/account-schemas';
import { PasswordInput } from '../../auth/password-input';
import { adminApi, ApiError } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { Field, PageHeader, primaryButton } from '../shared/ui';

const L = labels.password;

export function PasswordPage() {
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordChangeInput>({ resolver: zodResolver(passwordChangeSchema), defaultValues: { currentPassword: '', newPassword: '' } });

  async function onSubmit(values: PasswordChangeInput) {
    try {
      await adminApi.changePassword(values.currentPassword, values.newPassword);
      reset();
      toast.success(L.success, { description: L.successText });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        setError('currentPassword', { message: L.wrongCurrent });
      } else if (error instanceof ApiError && error.fieldErrors) {
        for (const [field, keys] of Object.entries(error.fieldErrors)) setError(field as keyof PasswordChangeInput, { message: keys[0] });
      }
      toast.error(L.failure);
    }
  }

  return (
    <>
      <PageHeader title={labels.nav.password} intro={L.intro} />
      <form onSubmit={handleSubmit(onSubmit)} noValidate className="max-w-md space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <Field id="password-current" label={L.current} required error={errors.currentPassword?.message}>
          {(a) => (
            <PasswordInput id={a.id} autoComplete="current-password" invalid={!!a['aria-invalid']} describedBy={a['aria-describedby']} registration={register('currentPassword')} />
          )}
        </Field>
        <Field id="password-new" label={L.next} required error={errors.newPassword?.message} hint={labels.passwordRules}>
          {(a) => (
            <PasswordInput id={a.id} autoComplete="new-password" invalid={!!a['aria-invalid']} describedBy={a['aria-describedby']} registration={register('newPassword')} />
          )}
        </Field>
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? L.submitting : L.submit}
        </button>
      </form>
    </>
  );
}
