import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContactForm } from './contact-form';

beforeAll(() => {
  // sonner reads these; jsdom lacks them.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

// Typing is slow when the two shared cores are busy.
vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  // sonner keeps toasts in a module-level store; start every test without any.
  act(() => {
    toast.dismiss();
  });
  cleanup();
  vi.unstubAllGlobals();
});

const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function fillRequired(user: ReturnType<typeof userEvent.setup>, lang: 'de' | 'en' = 'de') {
  const l = lang === 'de' ? { email: 'E-Mail', message: 'Nachricht' } : { email: 'Email', message: 'Message' };
  await user.type(screen.getByLabelText(/^Name/), 'Erika Mustermann');
  await user.type(screen.getByLabelText(new RegExp(`^${l.email}`)), 'erika@example.org');
  await user.type(screen.getByLabelText(new RegExp(`^${l.message}`)), 'Hallo Praxis');
}

describe('ContactForm', () => {
  it('has its fields: email and tel types, a 5-row message, required marks and the data-use note', () => {
    render(<ContactForm lang="de" />);
    expect(screen.getByLabelText(/^E-Mail/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/^Telefon/)).toHaveAttribute('type', 'tel');
    expect(screen.getByLabelText(/^Betreff/)).toHaveAttribute('type', 'text');
    expect(screen.getByLabelText(/^Nachricht/)).toHaveAttribute('rows', '5');
    for (const label of [/^Name/, /^E-Mail/, /^Nachricht/]) expect(screen.getByLabelText(label)).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText(/^Telefon/)).not.toHaveAttribute('aria-required');
    expect(screen.getByText(/ausschließlich zur Bearbeitung Ihrer Anfrage/)).toBeInTheDocument();
  });

  it('shows the required-fields toast and sends nothing when a required field is empty', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    render(<ContactForm lang="de" />);
    await user.type(screen.getByLabelText(/^Name/), 'Erika');
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    const message = await screen.findByText('Bitte füllen Sie alle Pflichtfelder aus.');
    const item = message.closest('[data-sonner-toast]') as HTMLElement;
    expect(item).toHaveAttribute('data-type', 'error');
    expect(within(item).getByText('Fehler')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the same error once however often the patient clicks send', async () => {
    vi.stubGlobal('fetch', vi.fn());
    const user = userEvent.setup();
    render(<ContactForm lang="de" />);
    const send = screen.getByRole('button', { name: 'Nachricht senden' });
    await user.click(send);
    await screen.findByText('Bitte füllen Sie alle Pflichtfelder aus.');
    await user.click(send);
    await user.click(send);
    await waitFor(() => expect(document.querySelectorAll('[data-sonner-toast]')).toHaveLength(1));
    expect(screen.getAllByText('Bitte füllen Sie alle Pflichtfelder aus.')).toHaveLength(1);
  });

  it('shows a field error for an invalid email without the required toast', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    render(<ContactForm lang="en" />);
    await fillRequired(user, 'en');
    await user.clear(screen.getByLabelText(/^Email/));
    await user.type(screen.getByLabelText(/^Email/), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Please fill in all required fields.')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('posts the message with the page language, shows Sending..., then clears the form with a success toast', async () => {
    let resolve!: (r: Response) => void;
    const fetchMock = vi.fn(() => new Promise<Response>((r) => (resolve = r)));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    render(<ContactForm lang="en" />);
    await fillRequired(user, 'en');
    await user.type(screen.getByLabelText(/^Subject/), 'Flu shot');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    const busy = await screen.findByRole('button', { name: 'Sending...' });
    expect(busy).toBeDisabled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/contact');
    expect(JSON.parse(init.body as string)).toEqual({
      name: 'Erika Mustermann',
      email: 'erika@example.org',
      subject: 'Flu shot',
      message: 'Hallo Praxis',
      website: '',
      language: 'en',
    });
    resolve(jsonResponse(200, { success: true }));
    expect(await screen.findByText('Message sent!')).toBeInTheDocument();
    expect(screen.getByText(/Thank you for your message/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/^Name/)).toHaveValue(''));
    expect(screen.getByLabelText(/^Message/)).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
  });

  it.each([
    ['a transport error', () => Promise.reject(new TypeError('Failed to fetch')), 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es später erneut oder rufen Sie uns an.'],
    ['a 502 without success', () => Promise.resolve(jsonResponse(502, { success: false, error: 'x' })), 'Ihre Nachricht konnte nicht gesendet werden. Bitte versuchen Sie es später erneut.'],
    ['a 429', () => Promise.resolve(jsonResponse(429, { type: 'rate-limited', status: 429 })), 'Von diesem Anschluss kamen zu viele Nachrichten. Bitte versuchen Sie es später erneut oder rufen Sie uns an.'],
    [
      'a 429 with Retry-After',
      () => {
        const response = jsonResponse(429, { type: 'rate-limited', status: 429 });
        response.headers.set('retry-after', '600');
        return Promise.resolve(response);
      },
      'Von diesem Anschluss kamen zu viele Nachrichten. Bitte versuchen Sie es in 10 Minuten erneut oder rufen Sie uns an.',
    ],
    ['an unreadable answer', () => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 })), 'Ein unerwarteter Fehler ist aufgetreten. Bitte versuchen Sie es später erneut.'],
  ])('on %s shows the matching error toast and keeps the values', async (_, answer, text) => {
    vi.stubGlobal('fetch', vi.fn(answer));
    const user = userEvent.setup();
    render(<ContactForm lang="de" />);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    const message = await screen.findByText(text);
    const item = message.closest('[data-sonner-toast]') as HTMLElement;
    expect(item).toHaveAttribute('data-type', 'error');
    expect(within(item).getByText('Fehler')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Erika Mustermann');
    expect(screen.getByLabelText(/^Nachricht/)).toHaveValue('Hallo Praxis');
    expect(screen.getByRole('button', { name: 'Nachricht senden' })).toBeEnabled();
  });

  it.each([
    ['de', 'Nachricht senden', 'Keine Internetverbindung', 'Ihr Gerät ist offline.', /^Nachricht/],
    ['en', 'Send message', 'No internet connection', 'Your device is offline.', /^Message/],
  ] as const)('offline (%s): says the device is offline and keeps the text', async (lang, submit, title, text, messageLabel) => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    try {
      const user = userEvent.setup();
      render(<ContactForm lang={lang} />);
      await fillRequired(user, lang);
      await user.click(screen.getByRole('button', { name: submit }));
      const item = (await screen.findByText(title)).closest('[data-sonner-toast]') as HTMLElement;
      expect(item.textContent).toContain(text);
      expect(screen.getByLabelText(messageLabel)).toHaveValue('Hallo Praxis');
    } finally {
      offline.mockRestore();
    }
  });

  it("puts the server's field errors on their fields", async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(jsonResponse(400, { type: 'invalid-input', status: 400, errors: { phone: ['contact.errors.phoneInvalid'] } }))));
    const user = userEvent.setup();
    render(<ContactForm lang="de" />);
    await fillRequired(user);
    await user.click(screen.getByRole('button', { name: 'Nachricht senden' }));
    expect(await screen.findByText('Bitte geben Sie eine gültige Telefonnummer ein.')).toBeInTheDocument();
  });
});
