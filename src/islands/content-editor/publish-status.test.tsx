/**
 * After "Veröffentlichen" the editor shows the state of the publication
 * from GET /api/admin/content/status, asking again every few seconds until
 * it is live (with the Berlin time) or failed (with the reason).
 */
import '@testing-library/jest-dom/vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PublishStatusBar, STATUS_POLL_MS, type PublishStatus } from './content-editor';
import { CONTENT_SAVED_EVENT } from './praxis-backend';

describe('the publication state above the editor', () => {
  let answers: PublishStatus[];
  const asked: string[] = [];

  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    answers = [];
    asked.length = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        const next = answers.length > 1 ? answers.shift()! : answers[0]!;
        return new Response(JSON.stringify(next), { status: 200, headers: { 'content-type': 'application/json' } });
      }),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('shows nothing before anything was saved', async () => {
    answers = [{ state: 'idle', since: '2026-11-25T19:00:00Z' }];
    render(<PublishStatusBar />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    expect(asked).toEqual(['/api/admin/content/status']);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('follows a save from waiting through running to live since 20:45', async () => {
    answers = [{ state: 'idle', since: '2026-11-25T19:00:00Z' }];
    render(<PublishStatusBar />);
    await act(() => vi.advanceTimersByTimeAsync(10));
    answers = [
      { state: 'queued', since: '2026-11-25T19:44:00Z' },
      { state: 'running', since: '2026-11-25T19:44:05Z' },
      { state: 'live', since: '2026-11-25T19:45:00Z' },
    ];
    act(() => void window.dispatchEvent(new Event(CONTENT_SAVED_EVENT)));
    expect(await screen.findByText('Veröffentlichung: wartet')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(STATUS_POLL_MS + 50));
    expect(screen.getByText('Veröffentlichung: läuft …')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(STATUS_POLL_MS + 50));
    expect(screen.getByRole('status')).toHaveTextContent('Veröffentlichung: live seit 20:45');
    const count = asked.length;
    await act(() => vi.advanceTimersByTimeAsync(STATUS_POLL_MS * 3));
    expect(asked.length).toBe(count);
  });

  it('names the reason of a failure, and links the commit of a production save', async () => {
    answers = [{ state: 'failed', since: '2026-11-25T19:45:00Z', detail: 'src/content/de/home.md: hero.heading: Required' }];
    const { unmount } = render(<PublishStatusBar />);
    expect(await screen.findByRole('status')).toHaveTextContent('Veröffentlichung fehlgeschlagen: src/content/de/home.md: hero.heading: Required');
    unmount();
    const sha = 'a'.repeat(40);
    answers = [{ state: 'queued', since: '2026-11-25T19:45:00Z', commit: { sha, url: `https://github.com/praxis/website/commit/${sha}` }, detail: 'gespeichert – Netlify veröffentlicht in der Regel in 1–2 Minuten' }];
    render(<PublishStatusBar />);
    expect(await screen.findByText('gespeichert – Netlify veröffentlicht in der Regel in 1–2 Minuten')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Commit ansehen (aaaaaaa)' })).toHaveAttribute('href', `https://github.com/praxis/website/commit/${sha}`);
  });
});
