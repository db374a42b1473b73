/**
 * `client:interaction`: hydrates an island on the visitor's first
 * interaction with it (pointer, touch, focus, a key), so a page whose only
 * island is a form ships none of the island's JavaScript on load. The island's
 * server-rendered HTML works without it (the contact form posts as a plain
 * HTML form). Anything typed before hydration finishes is kept: the last
 * value of each field is tracked until the island marks its root element
 * `data-hydrated` (in an effect, so after its commit), then written back with
 * an input event so the form library sees it. A submit before that waits for
 * the island. An island using this directive sets `data-hydrated`.
 */
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const interaction: ClientDirective = (load, _options, el) => {
  let started: Promise<void> | null = null;
  let hydrated = false;
  const fields = () => [...el.querySelectorAll<Field>('input, textarea, select')].filter((f) => f.type !== 'hidden');
  // What the visitor typed last in each field, kept from the first interaction until the island
  // is in charge: hydrating (and a form library registering its fields) may reset the DOM meanwhile.
  const typed = new Map<string, { value: string; checked: boolean }>();
  const remember = (field: Field) => field.name && typed.set(field.name, { value: field.value, checked: (field as HTMLInputElement).checked });
  const onInput = (event: Event) => {
    if (!hydrated && event.target instanceof Element && el.contains(event.target) && 'value' in event.target) remember(event.target as Field);
  };
  const start = () =>
    (started ??= (async () => {
      for (const event of EVENTS) el.removeEventListener(event, onEvent);
      for (const field of fields()) remember(field);
      el.addEventListener('input', onInput, true);
      el.addEventListener('change', onInput, true);
      const hydrate = await load();
      const focused = document.activeElement;
      const focusedName = focused && el.contains(focused) ? (focused as Field).name : null;
      await hydrate();
      // React hydrates in a transition, after hydrate() resolves, and its effects run after the
      // commit: the island marks its root `data-hydrated` in an effect. Until then a submit
      // would still be the browser's own post, and typed values may still be reset.
      const root = el.querySelector('form') ?? el.firstElementChild;
      for (let waited = 0; root && waited < 10_000 && !root.hasAttribute('data-hydrated'); waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      hydrated = true;
      el.removeEventListener('input', onInput, true);
      el.removeEventListener('change', onInput, true);
      el.removeEventListener('submit', onSubmit, true);
      for (const field of fields()) {
        const before = typed.get(field.name);
        if (!before) continue;
        if (field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio')) {
          if (field.checked !== before.checked) field.click();
          continue;
        }
        if (field.value === before.value) continue;
        // The native setter, so React's value tracking sees a change.
        const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set;
        setter?.call(field, before.value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
      }
      if (focusedName) fields().find((f) => f.name === focusedName && document.activeElement !== f)?.focus();
    })());
  const onEvent = () => void start().catch(() => {});
  // A submit before the island is there (the first click was on the button): wait
  // for it and submit again, so the island validates and sends; if it cannot load
  // (offline, a deploy removed the chunk), the browser posts the plain form.
  const onSubmit = (event: Event) => {
    if (hydrated) return;
    const form = event.target as HTMLFormElement;
    const submitter = (event as SubmitEvent).submitter as HTMLElement | null;
    event.preventDefault();
    // React may already listen on this root while its effects have not run: without this it
    // would handle this submit as well as the one sent again below (two toasts, two posts).
    event.stopImmediatePropagation();
    start().then(
      () => form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined),
      () => form.submit(),
    );
  };
  for (const event of EVENTS) el.addEventListener(event, onEvent, { passive: true });
  el.addEventListener('submit', onSubmit, true);
};

export default interaction;
