/** /auth: admin sign-in. */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { loginSchema, secondFactorCodeSchema, type LoginInput } from '../../lib/auth-schemas';
import { Field, SubmitButton } from '../admin/shared/field';
import { labels } from '../admin/shared/labels';
import { failureText } from '../admin/shared/admin-api';
import { afterSignInPath, ApiError, authApi, ENDED_PARAM, setFlash, signInWithPasskey, type SessionInfo } from './auth-client';
import { BackOfficeToaster } from './toaster';
import { inputClass, PasswordInput } from './password-input';

const L = labels.login;

/** Where a new session goes: an account that must set up its second factor first goes to "Mein Konto". */
function enter(session: SessionInfo) {
  if (session.secondFactor === 'enrolment-required') {
    setFlash({ title: L.success, description: L.enrolNow });
    window.location.assign('/admin/konto');
    return;
  }
  setFlash({ title: L.success });
  window.location.assign(afterSignInPath(window.location.search));
}

export default function LoginForm() {
  const [adminExists, setAdminExists] = useState<boolean | null>(null);
  /** The password was right and the account has a second factor: the code step. */
  const [codeStep, setCodeStep] = useState(false);
  /** Sent here because this device's session was ended on another device or by an admin: the page says so. */
  const [ended, setEnded] = useState(false);
  useEffect(() => setEnded(new URLSearchParams(window.location.search).get(ENDED_PARAM) === '1'), []);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput>({ resolver: zodResolver(loginSchema), defaultValues: { email: '', password: '' } });

  useEffect(() => {
    // On load the page also checks whether any admin exists.
    authApi
      .status()
      .then((s) => setAdminExists(s.adminExists))
      .catch(() => setAdminExists(null));
  }, []);

  async function onSubmit(values: LoginInput) {
    try {
      const answer = await authApi.login(values.email, values.password);
      if ('second_factor' in answer) setCodeStep(true);
      else enter(answer);
    } catch (error) {
      // German whatever the server said: the reason by its problem type (the API's detail is a developer text).
      toast.error(L.failure, { description: failureText(error, L.problems) });
    }
  }

  if (codeStep) {
    return (
      <>
        <BackOfficeToaster />
        <CodeForm onExpired={() => setCodeStep(false)} />
      </>
    );
  }

  return (
    <>
      <BackOfficeToaster />
      {ended && (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-slate-900">
          {L.ended}
        </p>
      )}
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
        <PasskeyButton />
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

/** The code step of sign-in: 6 digits from the authenticator app, or a recovery code. */
function CodeForm({ onExpired }: { onExpired: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = secondFactorCodeSchema.safeParse({ code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      enter(await authApi.secondFactor(parsed.data.code));
    } catch (failure) {
      if (failure instanceof ApiError && failure.type === 'unauthenticated') {
        toast.error(L.failure, { description: L.codeExpired });
        onExpired();
        return;
      }
      if (failure instanceof ApiError && failure.type === 'invalid-code') setError('errors.codeWrong');
      if (failure instanceof ApiError && failure.type === 'code-step-closed') setError(L.problems['code-step-closed']);
      toast.error(L.failure, { description: failureText(failure, L.problems) });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
      <p className="text-sm text-slate-700">{L.codeIntro}</p>
      <Field id="login-code" label={L.code} error={error}>
        {(a) => (
          <input
            {...a}
            autoFocus
            inputMode="text"
            autoComplete="one-time-code"
            autoCapitalize="characters"
            spellCheck={false}
            className={`${inputClass} font-mono tracking-widest`}
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setError(undefined);
            }}
          />
        )}
      </Field>
      <SubmitButton busy={busy} label={L.codeSubmit} busyLabel={L.codeSubmitting} />
      <PasskeyButton />
      <p className="text-center text-sm">
        <button type="button" className="font-medium text-brand-700 underline" onClick={onExpired}>
          {L.restart}
        </button>
      </p>
    </form>
  );
}

/**
 * "Mit Passkey anmelden" (docs/decisions/037-passkeys-sessions-guessing.md):
 * a passkey with user verification is both factors, so it signs in from the
 * first step as from the code step, without password or code.
 */
function PasskeyButton() {
  const [busy, setBusy] = useState(false);

  async function onClick() {
    setBusy(true);
    try {
      enter(await signInWithPasskey());
    } catch (failure) {
      // The browser's own refusal (cancelled, timed out, no passkey here) is no ApiError.
      const description = failure instanceof ApiError ? (failure.type === 'unauthenticated' ? L.passkeyRefused : failureText(failure, L.problems)) : L.passkeyCancelled;
      toast.error(L.failure, { description });
      setBusy(false);
    }
  }

  return (
    <div className="space-y-2">
      <p aria-hidden="true" className="flex items-center gap-3 text-xs uppercase text-slate-500 before:h-px before:flex-1 before:bg-slate-200 after:h-px after:flex-1 after:bg-slate-200">
        {L.or}
      </p>
      <button
        type="button"
        disabled={busy}
        aria-describedby="passkey-hint"
        onClick={() => void onClick()}
        className="w-full rounded-md border border-brand-700 bg-white px-4 py-2.5 font-semibold text-brand-800 hover:bg-brand-50 disabled:opacity-60"
      >
        {busy ? L.passkeyBusy : L.passkey}
      </button>
      <p id="passkey-hint" className="text-xs text-slate-600">
        {L.passkeyHint}
      </p>
    </div>
  );
}
