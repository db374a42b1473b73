/**
 * "Benutzer": the staff accounts (every one an admin). Admins add a
 * colleague with an emailed invitation (48 h) or an initial password, and
 * remove one; the server refuses to remove the last admin.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import { newUserSchema } from '../../../lib/account-schemas';
import { PasswordInput } from '../../auth/password-input';
import { adminApi, failureText, type StaffUserDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { ConfirmButton, EditDialog, Field, FormActions, inputClass, ListTable, PageHeader, primaryButton, saveForm, secondaryButton, useList } from '../shared/ui';

const L = labels.users;
const C = labels.common;
const createdAt = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium' });
const timeOf = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', timeStyle: 'short' });

interface NewUserForm {
  email: string;
  mode: 'invite' | 'password';
  password: string;
}
type NewUserBody = { email: string; password?: string; invite?: boolean };

/** The form's values as the API's body, checked by the schema the server uses. */
const toBody = (values: NewUserForm): NewUserBody =>
  values.mode === 'invite' ? { email: values.email, invite: true } : { email: values.email, password: values.password };
const resolver: Resolver<NewUserForm> = async (values, context, options) => {
  const result = await zodResolver(newUserSchema)(toBody(values) as never, context, options as never);
  return Object.keys(result.errors).length > 0 ? { values: {}, errors: result.errors } : { values, errors: {} };
};

export function UsersPage({ currentUserId }: { currentUserId?: string }) {
  const { items, reload } = useList(adminApi.users.list, () => toast.error(C.error, { description: L.loadError }));
  const [editing, setEditing] = useState<'new' | null>(null);

  async function resend(user: StaffUserDto) {
    try {
      const sent = await adminApi.users.resendInvitation(user.id);
      if (sent.invitationSent) toast.success(L.resent(user.email));
      else toast.warning(L.resendFailed);
      reload();
    } catch (error) {
      toast.error(C.error, { description: failureText(error, { conflict: L.alreadyActive, 'rate-limited': L.resendLimited }) });
    }
  }

  async function resetSecondFactor(user: StaffUserDto) {
    try {
      await adminApi.users.resetSecondFactor(user.id);
      toast.success(L.secondFactorReset(user.email));
      reload();
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
    }
  }

  async function remove(user: StaffUserDto) {
    try {
      await adminApi.users.remove(user.id);
      toast.success(L.removed);
      reload();
    } catch (error) {
      toast.error(C.deleteError, { description: failureText(error) });
    }
  }

  return (
    <>
      <PageHeader
        title={labels.nav.users}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setEditing('new')}>
            {L.add}
          </button>
        }
      />
      <RequireSecondFactor />
      <ListTable
        loaded={items !== null}
        total={items?.length ?? 0}
        shown={items?.length ?? 0}
        text={L}
        columns={[labels.users.email, L.status, L.secondFactor, L.createdAt, L.actions]}
      >
        {(items ?? []).map((user) => (
          <tr key={user.id}>
            <td className="px-3 py-2">
              {user.email} {user.id === currentUserId && <span className="text-slate-500">{L.you}</span>}
            </td>
            <td className="px-3 py-2">
              {user.status === 'active' ? (
                L.active
              ) : (
                <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                  {user.invited_until ? L.invitedUntil(createdAt.format(new Date(user.invited_until)) + ', ' + timeOf.format(new Date(user.invited_until))) : L.invitationExpired}
                </span>
              )}
            </td>
            <td className="px-3 py-2">{user.second_factor ? L.secondFactorOn : L.secondFactorOff}</td>
            <td className="px-3 py-2">{createdAt.format(new Date(user.created_at))}</td>
            <td className="px-3 py-2">
              <div className="flex flex-wrap gap-2">
                {user.second_factor && user.id !== currentUserId && (
                  <ConfirmButton
                    label={L.resetSecondFactor}
                    accessibleLabel={L.resetSecondFactorNamed(user.email)}
                    title={L.resetSecondFactorTitle}
                    text={L.resetSecondFactorText(user.email)}
                    confirmLabel={L.resetSecondFactor}
                    onConfirm={() => resetSecondFactor(user)}
                    className={secondaryButton}
                  />
                )}
                {user.status === 'invited' && (
                  <button type="button" className={secondaryButton} aria-label={L.resendNamed(user.email)} onClick={() => void resend(user)}>
                    {L.resend}
                  </button>
                )}
                <ConfirmButton
                  label={L.remove}
                  accessibleLabel={L.removeNamed(user.email)}
                  title={L.removeTitle}
                  text={L.removeText(user.email)}
                  confirmLabel={L.remove}
                  onConfirm={() => remove(user)}
                />
              </div>
            </td>
          </tr>
        ))}
      </ListTable>
      <EditDialog<never> editing={editing} setEditing={(v) => setEditing(v === null ? null : 'new')} onSaved={reload} labels={L}>
        {(_entity, done, cancel) => <NewUserFormFields done={done} cancel={cancel} />}
      </EditDialog>
    </>
  );
}

/** "Zwei-Faktor-Pflicht": one switch for the whole practice (docs/decisions/027-staff-second-factor.md). */
function RequireSecondFactor() {
  const [value, setValue] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    adminApi.settings
      .get()
      .then((s) => setValue(s.require_second_factor))
      .catch(() => setValue(null));
  }, []);

  async function change(next: boolean) {
    setBusy(true);
    try {
      const saved = await adminApi.settings.update({ require_second_factor: next });
      setValue(saved.require_second_factor);
      toast.success(saved.require_second_factor ? L.requireOn : L.requireOff);
    } catch (error) {
      toast.error(C.error, { description: failureText(error, { conflict: L.requireNeedsOwn }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="require-second-factor-title" className="mb-6 max-w-2xl rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="require-second-factor-title" className="font-semibold">
        {L.requireTitle}
      </h2>
      <label className="mt-2 flex items-start gap-3 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0"
          checked={value === true}
          disabled={value === null || busy}
          aria-describedby="require-second-factor-hint"
          onChange={(e) => void change(e.target.checked)}
        />
        <span className="font-medium">{L.requireLabel}</span>
      </label>
      <p id="require-second-factor-hint" className="mt-1 text-xs text-slate-600">
        {L.requireHint}
      </p>
    </section>
  );
}

function NewUserFormFields({ done, cancel }: { done: () => void; cancel: () => void }) {
  const {
    register,
    handleSubmit,
    watch,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewUserForm>({ resolver, defaultValues: { email: '', mode: 'invite', password: '' } });
  const mode = watch('mode');

  const onSubmit = (values: NewUserForm) =>
    saveForm(
      async () => {
        const created = await adminApi.users.create(toBody(values));
        if (created.invitationSent === false) toast.warning(L.inviteFailed);
      },
      {
        success: mode === 'invite' ? L.invited : L.created,
        onDone: done,
        setFieldError: (field, message) => setError(field as keyof NewUserForm, { message }),
        ownTypes: { conflict: L.emailTaken },
      },
    );

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <Field id="user-email" label={L.email} required error={errors.email?.message}>
        {(a) => <input {...a} type="email" autoComplete="off" className={inputClass} {...register('email')} />}
      </Field>
      <fieldset>
        <legend className="block text-sm font-medium">{L.how}</legend>
        <div className="mt-2 space-y-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" value="invite" {...register('mode')} /> {L.invite}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="radio" value="password" {...register('mode')} /> {L.withPassword}
          </label>
        </div>
      </fieldset>
      {mode === 'password' && (
        <Field id="user-password" label={L.password} required error={errors.password?.message} hint={labels.passwordRules}>
          {(a) => (
            <PasswordInput id={a.id} autoComplete="new-password" invalid={!!a['aria-invalid']} describedBy={a['aria-describedby']} registration={register('password')} />
          )}
        </Field>
      )}
      <FormActions submitting={isSubmitting} onCancel={cancel} />
    </form>
  );
}
