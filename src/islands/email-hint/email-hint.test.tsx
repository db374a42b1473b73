/**
 * The email hint appears when the field is left, but never between the
 * press and the release that left it: a line inserted there would move the
 * pressed target (the consent box) and the click would miss it.
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmailHintLine, useEmailHint } from './email-hint';

function Form() {
  const hint = useEmailHint();
  const [email, setEmail] = useState('');
  return (
    <form>
      <input aria-label="E-Mail" value={email} onChange={(e) => setEmail(e.target.value)} onBlur={(e) => void hint.check(e.target.value)} />
      <EmailHintLine id="h" hint={hint.hint} didYouMean="Meinten Sie {{email}}?" accept="Übernehmen" onAccept={setEmail} />
      <input type="checkbox" aria-label="Einwilligung" />
    </form>
  );
}

describe('email hint', () => {
  afterEach(cleanup);

  it('left by the keyboard: the hint shows at once', async () => {
    render(<Form />);
    const field = screen.getByLabelText('E-Mail');
    fireEvent.change(field, { target: { value: 'erika@gmial.com' } });
    fireEvent.blur(field);
    expect(await screen.findByRole('status')).toHaveTextContent('Meinten Sie erika@gmail.com?');
  });

  it('left by a press elsewhere: the hint waits until that click has landed', async () => {
    render(<Form />);
    const field = screen.getByLabelText('E-Mail');
    const consent = screen.getByLabelText('Einwilligung');
    fireEvent.change(field, { target: { value: 'erika@gmial.com' } });
    const listening = vi.spyOn(document, 'addEventListener');
    fireEvent.pointerDown(consent);
    fireEvent.blur(field);
    // The checker has loaded and answered, and its hint waits for the click to land; the pointer is still down.
    await waitFor(() => expect(listening).toHaveBeenCalledWith('click', expect.any(Function), expect.objectContaining({ once: true })));
    listening.mockRestore();
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.pointerUp(consent);
    fireEvent.click(consent);
    expect(consent).toBeChecked();
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Meinten Sie erika@gmail.com?'));
  });
});
