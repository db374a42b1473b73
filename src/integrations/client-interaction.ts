/**
 * `client:interaction` (issue 14): hydrates an island on the visitor's first
 * interaction with it (pointer, touch, focus, a key), so a page whose only
 * island is a form ships none of the island's JavaScript on load. The island's
 * server-rendered HTML works without it (the contact form posts as a plain
 * HTML form). Anything typed before hydration finishes is kept: the values
 * are read before and written back after hydrating, with an input event so
 * the form library sees them. A submit before hydration waits for the island.
 */
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const interaction: ClientDirective = (load, _options, el) => {
  let started: Promise<void> | null = null;
  let hydrated = false;
  const start = () =>
    (started ??= (async () => {
      for (const event of EVENTS) el.removeEventListener(event, onEvent);
      const hydrate = await load();
      const fields = () => [...el.querySelectorAll<Field>('input, textarea, select')].filter((f) => f.type !== 'hidden');
      const typed = fields().map((f) => ({ name: f.name, value: f.value, checked: (f as HTMLInputElement).checked }));
      const focused = document.activeElement;
      const focusedName = focused && el.contains(focused) ? (focused as Field).name : null;
      await hydrate();
      // React hydrates in a transition, after hydrate() resolves: until its props are on
      // the DOM, a submit would still be the browser's own post.
      const root = el.querySelector('form') ?? el.firstElementChild;
      for (let waited = 0; root && waited < 5000 && !Object.keys(root).some((k) => k.startsWith('__reactProps$')); waited += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      hydrated = true;
      el.removeEventListener('submit', onSubmit, true);
      for (const field of fields()) {
        const before = typed.find((t) => t.name === field.name);
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
    start().then(
      () => form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined),
      () => form.submit(),
    );
  };
  for (const event of EVENTS) el.addEventListener(event, onEvent, { passive: true });
  el.addEventListener('submit', onSubmit, true);
};

export default interaction;
