/** The second factor's setup helpers in jsdom: the otpauth:// link beside the QR code, and Kopieren, Herunterladen, Drucken of the recovery codes. */
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthenticatorQr, RecoveryCodes, recoveryCodesText } from './second-factor-setup';
import { practice } from '../../../lib/practice';

const OTPAUTH = 'otpauth://totp/Praxis:chefin%40example.org?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Praxis';
const CODES = ['ABCD-EFGH-JKLM-NPQR', 'STUV-WXYZ-2345-6789', 'A2B3-C4D5-E6F7-G8H9'];

afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.printOnly;
});

describe('AuthenticatorQr', () => {
  it('shows the QR code and beside it a link with the same otpauth:// address, for the phone that shows it', () => {
    render(<AuthenticatorQr setup={{ otpauth_url: OTPAUTH, qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' }} />);
    expect(screen.getByRole('img', { name: 'QR-Code für die Authenticator-App' })).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml;base64,/));
    const link = screen.getByRole('link', { name: 'In der Authenticator-App öffnen' });
    expect(link).toHaveAttribute('href', OTPAUTH);
    expect(link).toHaveAccessibleDescription('Auf dem Handy: antippen, die App übernimmt den Schlüssel.');
  });

  it('makes no link of anything but an otpauth:// address', () => {
    render(<AuthenticatorQr setup={{ otpauth_url: 'https://example.org/', qr_svg: '<svg/>' }} />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('RecoveryCodes', () => {
  const renderCodes = () =>
    render(
      <>
        <Toaster />
        <RecoveryCodes codes={CODES} account="anna@praxis.example" />
      </>,
    );

  it('lists the codes with Kopieren, Herunterladen and Drucken', () => {
    renderCodes();
    expect(screen.getByRole('list', { name: 'Wiederherstellungscodes' }).querySelectorAll('li')).toHaveLength(3);
    const actions = screen.getByRole('group', { name: 'Codes aufbewahren' });
    expect([...actions.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Kopieren', 'Herunterladen', 'Drucken']);
  });

  it('"Kopieren" puts a titled list of the codes on the clipboard and says so', async () => {
    // user-event puts a clipboard of its own in place.
    const user = userEvent.setup();
    renderCodes();
    await user.click(screen.getByRole('button', { name: 'Kopieren' }));
    expect(await screen.findByText('Codes in die Zwischenablage kopiert')).toBeInTheDocument();
    const copied = await navigator.clipboard.readText();
    expect(copied.split('\r\n')).toEqual(expect.arrayContaining(['Wiederherstellungscodes', ...CODES]));
  });

  it('a refused clipboard says what else to do', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new Error('denied'));
    renderCodes();
    await user.click(screen.getByRole('button', { name: 'Kopieren' }));
    expect(await screen.findByText('Kopieren nicht möglich')).toBeInTheDocument();
    expect(screen.getByText('Bitte laden Sie die Codes herunter oder drucken Sie sie.')).toBeInTheDocument();
  });

  it('"Herunterladen" saves a .txt file named after the site with the codes', async () => {
    let saved: Blob | null = null;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn((blob: Blob) => ((saved = blob), 'blob:codes')), revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    renderCodes();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Herunterladen' }));
    expect(clicked).toHaveLength(1);
    // The host with anything a file name should not carry (the port's colon) as a dash.
    expect(clicked[0]!.download).toBe(`wiederherstellungscodes-${window.location.host.replace(':', '-')}.txt`);
    expect(clicked[0]!.href).toBe('blob:codes');
    expect(saved!.type).toBe('text/plain;charset=utf-8');
    const text = await saved!.text();
    for (const code of CODES) expect(text).toContain(`${code}\r\n`);
    await waitFor(() => expect(URL.revokeObjectURL).toHaveBeenCalledWith('blob:codes'));
  });

  it('"Drucken" prints the codes alone: the page is marked while the print dialog is open, unmarked after', async () => {
    let markedWhilePrinting: string | undefined;
    vi.stubGlobal('print', vi.fn(() => (markedWhilePrinting = document.documentElement.dataset.printOnly)));
    renderCodes();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Drucken' }));
    expect(window.print).toHaveBeenCalledOnce();
    expect(markedWhilePrinting).toBe('recovery-codes');
    // The sheet that prints: a child of <body> of its own, with every code.
    const sheet = document.getElementById('recovery-codes-sheet')!;
    expect(sheet.parentElement).toBe(document.body);
    for (const code of CODES) expect(sheet).toHaveTextContent(code);
    // It names the account and the practice (docs/decisions/041).
    expect(sheet).toHaveTextContent('Konto: anna@praxis.example');
    expect(sheet).toHaveTextContent(`Praxis: ${practice.name.de}`);
    window.dispatchEvent(new Event('afterprint'));
    expect(document.documentElement.dataset.printOnly).toBeUndefined();
  });

  it('the text names what the codes are for and when they were made', () => {
    const text = recoveryCodesText(CODES, 'praxis.example', new Date('2030-01-07T09:05:00+01:00'), 'anna@praxis.example');
    expect(text.split('\r\n').slice(0, 5)).toEqual([
      'Wiederherstellungscodes',
      `Praxis: ${practice.name.de}`,
      'Konto: anna@praxis.example',
      'Zwei-Faktor-Anmeldung der Verwaltung unter praxis.example',
      'Erstellt: 07.01.2030, 09:05',
    ]);
  });
});
