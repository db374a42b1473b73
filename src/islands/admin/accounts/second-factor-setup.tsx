/**
 * Setting up the second factor (docs/decisions/027-staff-second-factor.md),
 * the parts around "Mein Konto"'s steps:
 *
 * - `AuthenticatorQr`: the QR code the server drew, and beside it a link
 *   with the same otpauth:// address. A phone cannot scan its own screen;
 *   tapped there, the link opens the authenticator app with the key.
 * - `RecoveryCodes`: the 10 codes, shown this once, and three ways to keep
 *   them: "Kopieren" (the clipboard, e.g. into a password manager),
 *   "Herunterladen" (a .txt file) and "Drucken" (a sheet of the codes alone:
 *   while it prints, everything else on the page is hidden).
 */
import { useEffect, useMemo } from 'react';
import { createPortal } from 'react-dom';
import { toast } from 'sonner';
import { labels } from '../shared/labels';
import { secondaryButton } from '../shared/ui';
import { practice } from '../../../lib/practice';

const S = labels.secondFactorSetup;
const PRINT_MARK = 'recovery-codes';
const SHEET_ID = 'recovery-codes-sheet';

/** The QR code and, beside it (below it on a narrow screen), the tappable otpauth:// link. */
export function AuthenticatorQr({ setup }: { setup: { otpauth_url: string; qr_svg: string } }) {
  // Only an authenticator address becomes a link: whatever else the answer carried is not followed.
  const link = /^otpauth:\/\//i.test(setup.otpauth_url) ? setup.otpauth_url : null;
  return (
    <div className="flex flex-wrap items-center gap-4">
      <img
        src={`data:image/svg+xml;base64,${btoa(setup.qr_svg)}`}
        alt={labels.account.qrAlt}
        width={200}
        height={200}
        className="h-[200px] w-[200px] rounded border border-slate-200 bg-white"
      />
      {link && (
        <p className="min-w-0 max-w-xs text-sm">
          <a href={link} className={secondaryButton} aria-describedby="otpauth-link-hint">
            {S.openInApp}
          </a>
          <span id="otpauth-link-hint" className="mt-2 block text-slate-600">
            {S.openInAppHint}
          </span>
        </p>
      )}
    </div>
  );
}

const stamp = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'short' });

/**
 * What "Kopieren" and "Herunterladen" hand over: a heading that says what
 * the codes are for, whose account and which practice they belong to
 * (docs/decisions/041-staff-messages-devices-printouts.md), then one code a line.
 */
export function recoveryCodesText(codes: string[], host: string, created: Date, account: string): string {
  return [S.sheetTitle, S.sheetPractice(practice.name.de), S.sheetAccount(account), S.sheetFor(host), S.sheetCreated(stamp.format(created)), '', S.sheetUse, '', ...codes, ''].join('\r\n');
}

/** The codes as a list, with Kopieren, Herunterladen and Drucken; `account`: the signed-in email they belong to. */
export function RecoveryCodes({ codes, account }: { codes: string[]; account: string }) {
  const host = window.location.host;
  const created = useMemo(() => new Date(), []);
  const text = recoveryCodesText(codes, host, created, account);

  // Never leave the page in "print the codes only" once they are gone.
  useEffect(() => () => void delete document.documentElement.dataset.printOnly, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(S.copied);
    } catch {
      toast.error(S.copyFailed, { description: S.copyFailedText });
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = S.fileName(host);
    document.body.append(link);
    link.click();
    link.remove();
    // The download has taken the file when the click returns; the address is freed on the next task.
    setTimeout(() => URL.revokeObjectURL(url));
  }

  function print() {
    const root = document.documentElement;
    root.dataset.printOnly = PRINT_MARK;
    const done = () => {
      delete root.dataset.printOnly;
      window.removeEventListener('afterprint', done);
    };
    window.addEventListener('afterprint', done);
    window.print();
  }

  return (
    <>
      <ul aria-label={labels.account.codesList} className="grid grid-cols-1 gap-1 font-mono text-base min-[400px]:grid-cols-2">
        {codes.map((c) => (
          <li key={c} className="rounded bg-slate-100 px-2 py-1 tracking-wider">
            {c}
          </li>
        ))}
      </ul>
      <div role="group" aria-label={S.codesActions} className="flex flex-wrap gap-2">
        <button type="button" className={secondaryButton} onClick={() => void copy()}>
          {S.copy}
        </button>
        <button type="button" className={secondaryButton} onClick={download}>
          {S.download}
        </button>
        <button type="button" className={secondaryButton} onClick={print}>
          {S.print}
        </button>
      </div>
      {createPortal(<RecoverySheet codes={codes} host={host} created={created} account={account} />, document.body)}
    </>
  );
}

/**
 * The printed sheet: a direct child of <body>, hidden on screen; while
 * "Drucken" prints (`<html data-print-only="recovery-codes">`), it is the
 * only thing on paper.
 */
function RecoverySheet({ codes, host, created, account }: { codes: string[]; host: string; created: Date; account: string }) {
  return (
    <div id={SHEET_ID} className="text-black">
      <style>{`
        #${SHEET_ID} { display: none; }
        @media print {
          html[data-print-only='${PRINT_MARK}'] body > :not(#${SHEET_ID}) { display: none !important; }
          html[data-print-only='${PRINT_MARK}'] #${SHEET_ID} { display: block !important; }
        }
      `}</style>
      <h1 className="text-xl font-semibold">{S.sheetTitle}</h1>
      <p className="mt-1 text-sm font-semibold">{S.sheetPractice(practice.name.de)}</p>
      <p className="text-sm font-semibold">{S.sheetAccount(account)}</p>
      <p className="mt-1 text-sm">{S.sheetFor(host)}</p>
      <p className="text-sm">{S.sheetCreated(stamp.format(created))}</p>
      <p className="mt-3 text-sm">{S.sheetUse}</p>
      <ol className="mt-4 grid grid-cols-2 gap-x-8 gap-y-2 font-mono text-lg tracking-wider">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
    </div>
  );
}
