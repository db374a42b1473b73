/**
 * "Mein Konto": the own second factor (docs/decisions/027-staff-second-factor.md),
 * the passkeys and the signed-in devices (docs/decisions/037-passkeys-sessions-guessing.md).
 * TOTP is set up after the current password, with a QR code the server drew
 * (shown as an image from a data: URL, which the page's policy allows;
 * nothing is fetched from anyone else) and the secret as text, confirmed
 * with one code; then the 10 recovery codes, shown this once (the QR code's
 * phone link and keeping the codes: second-factor-setup.tsx). Removing the
 * factor takes a recovery code.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CurrentPasswordField } from '../../auth/password-input';
import { adminApi, ApiError, failureText } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { Field, inputClass, Loading, PageHeader, primaryButton, secondaryButton } from '../shared/ui';
import { DevicesSection } from './devices-section';
import { AlertsSwitch } from '../system/alerts-switch';
import { PasskeysSection } from './passkeys-section';
import { AuthenticatorQr, RecoveryCodes } from './second-factor-setup';

const L = labels.account;
const C = labels.common;

type Status = { enrolled: boolean; recovery_codes_left: number; required: boolean };
type Setup = { secret: string; otpauth_url: string; qr_svg: string };

/** The secret in groups of four, easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

export function AccountPage({ enrolmentRequired = false, email = '' }: { enrolmentRequired?: boolean; /** The signed-in account, named on the recovery codes' sheet. */ email?: string }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [recovery, setRecovery] = useState('');
  const [recoveryError, setRecoveryError] = useState<string | undefined>();
  /** The password step before a setup (null: not asked yet). */
  const [password, setPassword] = useState<string | null>(null);
  const [passwordError, setPasswordError] = useState<string | undefined>();

  async function load() {
    try {
      setStatus(await adminApi.secondFactor.status());
    } catch {
      toast.error(C.error, { description: L.loadError });
    }
  }
  useEffect(() => {
    void load();
  }, []);

  async function start(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setPasswordError('errors.passwordRequired');
      return;
    }
    setBusy(true);
    try {
      setSetup(await adminApi.secondFactor.setup(password));
      setPassword(null);
      setCode('');
      setCodeError(undefined);
    } catch (error) {
      if (error instanceof ApiError && error.type === 'wrong-password') setPasswordError(L.wrongPassword);
      toast.error(C.error, { description: failureText(error, { conflict: status?.enrolled ? L.alreadyEnrolled : L.otherSession }) });
    } finally {
      setBusy(false);
    }
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setCodeError('errors.codeInvalid');
      return;
    }
    setBusy(true);
    try {
      const done = await adminApi.secondFactor.confirm(code.trim());
      setCodes(done.recovery_codes);
      setSetup(null);
      toast.success(L.confirmed);
    } catch (error) {
      if (error instanceof ApiError && error.type === 'invalid-code') setCodeError('errors.codeWrong');
      toast.error(C.error, { description: failureText(error) });
    } finally {
      setBusy(false);
    }
  }

  async function remove(event: FormEvent) {
    event.preventDefault();
    if (recovery.trim() === '') {
      setRecoveryError('errors.codeRequired');
      return;
    }
    setBusy(true);
    try {
      await adminApi.secondFactor.remove(recovery.trim());
      setRecovery('');
      setRecoveryError(undefined);
      toast.success(L.removed);
      await load();
    } catch (error) {
      if (error instanceof ApiError && error.type === 'invalid-code') setRecoveryError('errors.codeWrong');
      toast.error(C.error, { description: failureText(error) });
    } finally {
      setBusy(false);
    }
  }

  function codesSaved() {
    setCodes(null);
    // After a required enrolment the rest of the back office is open now.
    if (enrolmentRequired) window.location.assign('/admin');
    else void load();
  }

  return (
    <>
      <PageHeader title={labels.nav.account} intro={L.intro} />
      {enrolmentRequired && !codes && (
        <p role="alert" className="mb-4 max-w-2xl rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {L.enrolmentRequired}
        </p>
      )}
      <section aria-labelledby="second-factor-title" className="max-w-2xl space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="second-factor-title" className="text-lg font-semibold">
          {L.title}
        </h2>
        <p className="text-sm text-slate-700">{L.explain}</p>
        {status === null && !codes && <Loading />}

        {codes && (
          <div className="space-y-3">
            <h3 className="font-semibold">{L.codesTitle}</h3>
            <p className="text-sm text-slate-700">{L.codesText}</p>
            <RecoveryCodes codes={codes} account={email} />
            <button type="button" className={primaryButton} onClick={codesSaved}>
              {L.codesDone}
            </button>
          </div>
        )}

        {!codes && status && !status.enrolled && !setup && password === null && (
          <>
            <p className="text-sm font-medium">{L.statusOff}</p>
            <button type="button" className={primaryButton} onClick={() => setPassword('')}>
              {L.start}
            </button>
          </>
        )}

        {!codes && status && !status.enrolled && !setup && password !== null && (
          <form onSubmit={(e) => void start(e)} noValidate className="space-y-3">
            <p className="text-sm font-medium">{L.statusOff}</p>
            <CurrentPasswordField
              id="totp-password"
              label={L.currentPassword}
              required
              error={passwordError}
              hint={L.proofHint}
              value={password}
              onChange={(value) => {
                setPassword(value);
                setPasswordError(undefined);
              }}
            />
            <div className="flex flex-wrap gap-2">
              <button type="submit" className={primaryButton} disabled={busy}>
                {busy ? L.starting : L.next}
              </button>
              <button type="button" className={secondaryButton} onClick={() => setPassword(null)}>
                {C.cancel}
              </button>
            </div>
          </form>
        )}

        {!codes && setup && (
          <div className="space-y-3">
            <p className="text-sm">{L.step1}</p>
            <AuthenticatorQr setup={setup} />
            <p className="text-sm">{L.secretLabel}</p>
            <p className="break-all font-mono text-base tracking-wider" data-testid="totp-secret" data-secret={setup.secret}>
              {grouped(setup.secret)}
            </p>
            <form onSubmit={(e) => void confirm(e)} noValidate className="space-y-3">
              <p className="text-sm">{L.step2}</p>
              <Field id="totp-code" label={L.code} required error={codeError}>
                {(a) => (
                  <input
                    {...a}
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    className={`${inputClass} max-w-[12rem] font-mono tracking-widest`}
                    value={code}
                    onChange={(e) => {
                      setCode(e.target.value.replace(/\s/g, ''));
                      setCodeError(undefined);
                    }}
                  />
                )}
              </Field>
              <button type="submit" className={primaryButton} disabled={busy}>
                {busy ? L.confirming : L.confirm}
              </button>
            </form>
          </div>
        )}

        {!codes && status?.enrolled && (
          <>
            <p className="text-sm font-medium">{L.statusOn(status.recovery_codes_left)}</p>
            <form onSubmit={(e) => void remove(e)} noValidate className="space-y-3 border-t border-slate-200 pt-4">
              <h3 className="font-semibold">{L.removeTitle}</h3>
              <p className="text-sm text-slate-700">{L.removeText}</p>
              <Field id="remove-recovery-code" label={L.recoveryCode} required error={recoveryError}>
                {(a) => (
                  <input
                    {...a}
                    autoComplete="off"
                    spellCheck={false}
                    className={`${inputClass} max-w-xs font-mono`}
                    value={recovery}
                    onChange={(e) => {
                      setRecovery(e.target.value);
                      setRecoveryError(undefined);
                    }}
                  />
                )}
              </Field>
              <button type="submit" className={secondaryButton} disabled={busy}>
                {busy ? L.removing : L.remove}
              </button>
            </form>
          </>
        )}
      </section>
      {!codes && <PasskeysSection hasTotp={status?.enrolled ?? false} enrolmentRequired={enrolmentRequired} />}
      {!enrolmentRequired && <DevicesSection />}
      {!enrolmentRequired && <AlertsSwitch />}
      {!enrolmentRequired && (
        <p className="mt-6">
          <a href="/admin/password" className="font-medium text-brand-700 underline">
            {L.passwordLink}
          </a>
        </p>
      )}
    </>
  );
}
