/**
 * "Mein Konto" › Passkeys (docs/decisions/037-passkeys-sessions-guessing.md):
 * the own passkeys (name, created, last used), adding one (named, after
 * the current password and, when the account has TOTP, a code; the
 * browser's WebAuthn ceremony through @simplewebauthn/browser, loaded only
 * when a passkey is added), and removing one with the password or a code.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CurrentPasswordField, ProofCodeField } from '../../auth/password-input';
import { adminApi, ApiError, failureText, type PasskeyDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { Field, FormDialog, inputClass, Loading, primaryButton, secondaryButton } from '../shared/ui';

const L = labels.passkeys;
const A = labels.account;
const C = labels.common;
const when = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

/** The browser said no (cancelled, timed out, no authenticator): its WebAuthn errors are DOMExceptions or the library's WebAuthnError. */
const ceremonyFailed = (error: unknown) => !(error instanceof ApiError);

export function PasskeysSection({ hasTotp, enrolmentRequired }: { hasTotp: boolean; enrolmentRequired: boolean }) {
  const [items, setItems] = useState<PasskeyDto[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeyDto | null>(null);

  async function load() {
    try {
      setItems(await adminApi.passkeys.list());
    } catch {
      toast.error(C.error, { description: L.loadError });
    }
  }
  useEffect(() => {
    void load();
  }, []);

  return (
    <section aria-labelledby="passkeys-title" className="mt-6 max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id="passkeys-title" className="text-lg font-semibold">
        {L.title}
      </h2>
      <p className="text-sm text-slate-700">{L.explain}</p>
      {items === null && <Loading />}
      {items?.length === 0 && <p className="text-sm font-medium">{L.none}</p>}
      {items && items.length > 0 && (
        <ul aria-label={L.listLabel} className="divide-y divide-slate-200 rounded-md border border-slate-200">
          {items.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <div className="min-w-0">
                <p className="break-words font-medium">{p.name}</p>
                <p className="text-xs text-slate-600">
                  {L.created}: {when.format(new Date(p.created_at))} · {L.lastUsed}: {p.last_used_at ? when.format(new Date(p.last_used_at)) : L.never}
                </p>
              </div>
              {!enrolmentRequired && (
                <button type="button" className={secondaryButton} aria-label={L.removeNamed(p.name)} onClick={() => setRemoving(p)}>
                  {L.remove}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {adding ? (
        <AddPasskeyForm
          hasTotp={hasTotp}
          onDone={(added) => {
            setAdding(false);
            if (!added) return;
            // The first factor of an account that had to set one up opens the back office.
            if (enrolmentRequired) window.location.assign('/admin');
            else void load();
          }}
        />
      ) : (
        <button type="button" className={primaryButton} onClick={() => setAdding(true)}>
          {L.add}
        </button>
      )}
      <RemovePasskeyDialog
        passkey={removing}
        onClose={(removed) => {
          setRemoving(null);
          if (removed) void load();
        }}
      />
    </section>
  );
}

function AddPasskeyForm({ hasTotp, onDone }: { hasTotp: boolean; onDone: (added: boolean) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<{ name?: string; password?: string; code?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      name: name.trim() ? undefined : 'admin.errors.nameRequired',
      password: password ? undefined : 'errors.passwordRequired',
      code: !hasTotp || code.trim() ? undefined : 'errors.codeRequired',
    };
    if (missing.name || missing.password || missing.code) {
      setErrors(missing);
      return;
    }
    setBusy(true);
    try {
      const options = await adminApi.passkeys.registrationOptions({ password, ...(hasTotp ? { code: code.trim() } : {}) });
      const { startRegistration } = await import('@simplewebauthn/browser');
      const response = await startRegistration({ optionsJSON: options });
      const added = await adminApi.passkeys.register(name.trim(), response);
      toast.success(L.added(added.name));
      onDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.type === 'wrong-password') setErrors({ password: A.wrongPassword });
      else if (error instanceof ApiError && error.type === 'invalid-code') setErrors({ code: 'errors.codeWrong' });
      else if (error instanceof ApiError && error.fieldErrors?.name) setErrors({ name: error.fieldErrors.name[0] });
      toast.error(C.error, { description: ceremonyFailed(error) ? L.cancelled : failureText(error, { conflict: L.exists }) });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3 border-t border-slate-200 pt-4">
      <Field id="passkey-name" label={L.name} required error={errors.name} hint={L.nameHint}>
        {(a) => (
          <input
            {...a}
            maxLength={60}
            autoComplete="off"
            className={inputClass}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setErrors((x) => ({ ...x, name: undefined }));
            }}
          />
        )}
      </Field>
      <CurrentPasswordField
        id="passkey-password"
        label={A.currentPassword}
        required
        error={errors.password}
        hint={A.proofHint}
        value={password}
        onChange={(value) => {
          setPassword(value);
          setErrors((x) => ({ ...x, password: undefined }));
        }}
      />
      {hasTotp && (
        <ProofCodeField
          id="passkey-code"
          label={L.code}
          required
          error={errors.code}
          hint={L.codeHint}
          value={code}
          onChange={(value) => {
            setCode(value);
            setErrors((x) => ({ ...x, code: undefined }));
          }}
        />
      )}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButton} disabled={busy}>
          {busy ? L.creating : L.create}
        </button>
        <button type="button" className={secondaryButton} onClick={() => onDone(false)}>
          {C.cancel}
        </button>
      </div>
    </form>
  );
}

function RemovePasskeyDialog({ passkey, onClose }: { passkey: PasskeyDto | null; onClose: (removed: boolean) => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setPassword('');
    setCode('');
    setError(undefined);
    setBusy(false);
  }, [passkey]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!passkey) return;
    if (!password && !code.trim()) {
      setError('errors.passwordRequired');
      return;
    }
    setBusy(true);
    try {
      await adminApi.passkeys.remove(passkey.id, code.trim() ? { code: code.trim() } : { password });
      toast.success(L.removed(passkey.name));
      onClose(true);
    } catch (failure) {
      if (failure instanceof ApiError && (failure.type === 'wrong-password' || failure.type === 'invalid-code')) setError(failureText(failure));
      toast.error(C.error, { description: failureText(failure) });
      setBusy(false);
    }
  }

  return (
    <FormDialog open={passkey !== null} onOpenChange={(open) => !open && onClose(false)} title={passkey ? L.removeTitle(passkey.name) : ''} description={L.removeText}>
      <form onSubmit={(e) => void submit(e)} noValidate className="space-y-3">
        <CurrentPasswordField
          id="remove-passkey-password"
          label={A.currentPassword}
          error={error}
          value={password}
          onChange={(value) => {
            setPassword(value);
            setError(undefined);
          }}
        />
        <ProofCodeField
          id="remove-passkey-code"
          label={L.removeCode}
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(undefined);
          }}
        />
        <div className="mt-6 flex justify-end gap-3">
          <button type="button" className={secondaryButton} onClick={() => onClose(false)}>
            {C.cancel}
          </button>
          <button
            type="submit"
            disabled={busy}
            className="inline-flex items-center justify-center rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
          >
            {L.remove}
          </button>
        </div>
      </form>
    </FormDialog>
  );
}
