/**
 * The email-domain hint (email-hint.ts) for a plain page's form: when the
 * patient leaves the email field, the checker is loaded (only then: the
 * page's first load stays light) and a mistyped common domain gets a line
 * under the field, "Meinten Sie erika@gmail.com?", with one button that
 * takes it. Typing again removes the line. A hint, never a block.
 */

export interface EmailHintTexts {
  /** "Meinten Sie {{email}}?" (or `{email}`) */
  didYouMean: string;
  /** "Übernehmen" */
  accept: string;
}

/** Sets an input's value as typing does, so a framework's form state (React's included) sees it. */
export function typeInto(input: HTMLInputElement, value: string): void {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  if (setter) setter.call(input, value);
  else input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

let pointerDown = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pointerDown = true), true);
  document.addEventListener('pointerup', () => setTimeout(() => (pointerDown = false)), true);
  document.addEventListener('pointercancel', () => (pointerDown = false), true);
}

/**
 * Runs `show` once no pointer button is held. The field is left by a press
 * elsewhere (the consent box, say); a hint line inserted between that press
 * and its release would move the target under the pointer and the click
 * would miss. So the line waits for the click to land.
 */
export function afterPointerRelease(show: () => void): void {
  if (!pointerDown) {
    show();
    return;
  }
  let shown = false;
  const once = () => {
    if (shown) return;
    shown = true;
    show();
  };
  document.addEventListener('click', () => setTimeout(once), { capture: true, once: true });
  // A press that ends in no click (dragged away, a scroll that cancels it) still shows it.
  document.addEventListener('pointerup', () => setTimeout(once, 50), { capture: true, once: true });
  document.addEventListener('pointercancel', () => setTimeout(once), { capture: true, once: true });
}

export function attachEmailHint(input: HTMLInputElement, texts: EmailHintTexts): void {
  const id = `${input.id || input.name}-hint`;
  const remove = () => document.getElementById(id)?.remove();
  const check = async () => {
    const value = input.value;
    const { emailDomainHint } = await import('./email-hint');
    const suggestion = emailDomainHint(value);
    afterPointerRelease(() => {
      remove();
      if (suggestion && input.value === value) show(suggestion);
    });
  };
  const show = (suggestion: string) => {
    const [before, after = ''] = texts.didYouMean.split(/\{\{?email\}\}?/);
    const line = document.createElement('p');
    line.id = id;
    line.setAttribute('role', 'status');
    line.className = 'email-hint mt-1 text-sm text-slate-800';
    const strong = document.createElement('strong');
    strong.textContent = suggestion;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'ml-2 rounded border border-brand-700 px-2 py-0.5 text-sm font-medium text-brand-800 hover:bg-brand-50';
    button.textContent = texts.accept;
    button.addEventListener('click', () => {
      typeInto(input, suggestion);
      remove();
      input.focus();
    });
    line.append(before ?? '', strong, after, button);
    input.insertAdjacentElement('afterend', line);
  };
  input.addEventListener('blur', () => void check());
  input.addEventListener('input', (event) => {
    // Our own "Übernehmen" also fires input; anything typed makes the line stale.
    if (event.isTrusted) remove();
  });
}
