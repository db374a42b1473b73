// @vitest-environment jsdom
/**
 * The client:interaction directive's submit hand-over: a submit before the island has
 * committed is held back, then sent once to the island; never to both the browser and
 * the island, and never twice.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import interaction from './client-interaction';

// The directive waits for the island in 20 ms steps: a fake clock moves
// through them at once, and "nothing happened meanwhile" means a known time.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  // The form's submit spy starts from no calls in every test, whatever ran before.
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

function setUp() {
  document.body.innerHTML = '<astro-island><form><input name="email"><button type="submit">Senden</button></form></astro-island>';
  const island = document.querySelector('astro-island') as HTMLElement;
  const form = island.querySelector('form') as HTMLFormElement;
  const button = form.querySelector('button') as HTMLButtonElement;
  const islandSubmits: Event[] = [];
  let commit!: () => void;
  const committed = new Promise<void>((resolve) => (commit = resolve));
  // Like React: hydrating attaches the root's listeners to the island element at once, and
  // the effect that marks the form data-hydrated runs later, after the commit.
  const hydrate = vi.fn(async () => {
    island.addEventListener('submit', (event) => {
      event.preventDefault();
      islandSubmits.push(event);
    });
    void committed.then(() => form.setAttribute('data-hydrated', ''));
  });
  const load = vi.fn(async () => hydrate);
  const browserPosts = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
  void interaction(load, { name: 'interaction', value: '' }, island);
  return { island, form, button, islandSubmits, commit, load, hydrate, browserPosts };
}

const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe('client:interaction', () => {
  it('loads nothing before the visitor interacts', async () => {
    const { load } = setUp();
    await tick(50);
    expect(load).not.toHaveBeenCalled();
  });

  it('hands a submit made while the island hydrates to the island exactly once', async () => {
    const { island, button, islandSubmits, commit, hydrate, browserPosts } = setUp();
    island.dispatchEvent(new Event('pointerover'));
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalled());
    // React listens already, its effects have not run: the click lands in between.
    button.click();
    await tick(60);
    expect(islandSubmits).toHaveLength(0);
    commit();
    await vi.waitFor(() => expect(islandSubmits).toHaveLength(1));
    await tick(60);
    expect(islandSubmits).toHaveLength(1);
    expect(browserPosts).not.toHaveBeenCalled();
  });

  it('after the commit leaves submits to the island alone', async () => {
    const { island, button, islandSubmits, commit, hydrate } = setUp();
    island.dispatchEvent(new Event('focusin'));
    await vi.waitFor(() => expect(hydrate).toHaveBeenCalled());
    commit();
    await tick(60);
    button.click();
    button.click();
    expect(islandSubmits).toHaveLength(2);
  });

  it('falls back to the browser post when the island cannot load', async () => {
    document.body.innerHTML = '<astro-island><form><button type="submit">Senden</button></form></astro-island>';
    const island = document.querySelector('astro-island') as HTMLElement;
    const browserPosts = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {});
    void interaction(async () => Promise.reject(new Error('offline')), { name: 'interaction', value: '' }, island);
    (island.querySelector('button') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(browserPosts).toHaveBeenCalledTimes(1));
  });
});
