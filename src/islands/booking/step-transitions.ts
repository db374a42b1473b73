/**
 * The wizard's step transition: auto-animate's own default effects, with one
 * difference. auto-animate puts the step being left back into the page to
 * fade it out, where assistive technology would still find it: a quick Back
 * and Forward shows the same step twice for a moment, two headings with the
 * same name and the same ids. So the leaving copy is hidden from assistive
 * technology, taken out of the tab order and stripped of its ids at once.
 */
import type autoAnimateFn from '@formkit/auto-animate';
import type { AutoAnimationPlugin } from '@formkit/auto-animate';

const DURATION = 250;

export const stepTransitions: AutoAnimationPlugin = (el, action, first, second) => {
  if (action === 'add') {
    return new KeyframeEffect(
      el,
      [
        { transform: 'scale(.98)', opacity: 0 },
        { transform: 'scale(.98)', opacity: 0, offset: 0.5 },
        { transform: 'scale(1)', opacity: 1 },
      ],
      { duration: DURATION * 1.5, easing: 'ease-in' },
    );
  }
  if (action === 'remove') {
    leaving(el);
    return new KeyframeEffect(
      el,
      [
        { transform: 'scale(1)', opacity: 1 },
        { transform: 'scale(.98)', opacity: 0 },
      ],
      { duration: DURATION, easing: 'ease-out' },
    );
  }
  // 'remain': from where it was (first) to where it is (second).
  const dx = first && second ? first.left - second.left : 0;
  const dy = first && second ? first.top - second.top : 0;
  return new KeyframeEffect(el, [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }], {
    duration: DURATION,
    easing: 'ease-in-out',
  });
};

/** A step on its way out: seen fading, but no longer there for a screen reader, the keyboard or an id lookup. */
export function leaving(el: Element) {
  el.setAttribute('aria-hidden', 'true');
  if (el instanceof HTMLElement) el.inert = true;
  el.removeAttribute('id');
  for (const node of el.querySelectorAll('[id]')) node.removeAttribute('id');
}

/** Animates the steps inside `container`, unless the visitor asked for reduced motion (auto-animate's default, which a custom effect does not apply). */
export function animateSteps(autoAnimate: typeof autoAnimateFn, container: HTMLElement) {
  if (typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  autoAnimate(container, stepTransitions);
}
