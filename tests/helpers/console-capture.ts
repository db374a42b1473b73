import { vi } from 'vitest';

/**
 * Empties `logs` and sends every console line into it instead of the
 * terminal, so a test can assert what was (and was not) logged. Undone by
 * `vi.restoreAllMocks()`.
 */
export function captureConsole(logs: string[]): void {
  logs.length = 0;
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
    });
  }
}
