import { afterEach, describe, expect, it, vi } from 'vitest';
import { animateSteps, leaving, stepTransitions } from './step-transitions';

afterEach(() => vi.unstubAllGlobals());

describe('the wizard step transition', () => {
  it('hides a step being left from assistive technology and the keyboard, and frees its ids', () => {
    const step = document.createElement('section');
    step.id = 'step-3';
    step.innerHTML = '<h2 id="step-details-heading">Ihre Daten</h2><input id="first-name">';
    leaving(step);
    expect(step.getAttribute('aria-hidden')).toBe('true');
    expect(step.inert).toBe(true);
    expect(step.querySelectorAll('[id]')).toHaveLength(0);
    expect(step.id).toBe('');
  });

  it('the remove effect applies that before the fade starts', () => {
    const effects: unknown[][] = [];
    vi.stubGlobal('KeyframeEffect', function (this: unknown, ...args: unknown[]) {
      effects.push(args);
    });
    const step = document.createElement('section');
    step.innerHTML = '<h2 id="h">Ihre Daten</h2>';
    stepTransitions(step, 'remove', { top: 0, left: 0, width: 10, height: 10 });
    expect(step.getAttribute('aria-hidden')).toBe('true');
    expect(effects[0]![1]).toEqual([
      { transform: 'scale(1)', opacity: 1 },
      { transform: 'scale(.98)', opacity: 0 },
    ]);
  });

  it('does not animate for a visitor who asked for reduced motion', () => {
    const autoAnimate = vi.fn();
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    animateSteps(autoAnimate as never, document.createElement('div'));
    expect(autoAnimate).not.toHaveBeenCalled();
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    animateSteps(autoAnimate as never, document.createElement('div'));
    expect(autoAnimate).toHaveBeenCalledWith(expect.any(HTMLDivElement), stepTransitions);
  });
});
