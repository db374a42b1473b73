import { describe, expect, it } from 'vitest';
import { bookingToast } from './email-toast';
import { canGoNext, initialWizardState, progressOf, wizardReducer, type WizardState } from './wizard-state';

const run = (...actions: Parameters<typeof wizardReducer>[1][]) => actions.reduce(wizardReducer, initialWizardState);

describe('wizard state', () => {
  it('starts at step 1 and cannot go forward or back without a type', () => {
    expect(initialWizardState.step).toBe(1);
    expect(canGoNext(initialWizardState)).toBe(false);
    expect(wizardReducer(initialWizardState, { type: 'next' })).toBe(initialWizardState);
    expect(wizardReducer(initialWizardState, { type: 'back' }).step).toBe(1);
  });

  it('choosing a type moves to step 2; a same-day type preselects today', () => {
    expect(run({ type: 'chooseType', typeId: 'a', today: null })).toEqual({ step: 2, typeId: 'a', date: null, time: null });
    expect(run({ type: 'chooseType', typeId: 'a', today: '2026-11-23' }).date).toBe('2026-11-23');
  });

  it('goes on from step 2 only with date and time', () => {
    const s = run({ type: 'chooseType', typeId: 'a', today: null }, { type: 'chooseDate', date: '2026-11-24' });
    expect(wizardReducer(s, { type: 'next' }).step).toBe(2);
    const withTime = wizardReducer(s, { type: 'chooseTime', time: '09:00' });
    expect(wizardReducer(withTime, { type: 'next' }).step).toBe(3);
  });

  it('a new date clears the time; a new type clears date and time', () => {
    const s = run(
      { type: 'chooseType', typeId: 'a', today: null },
      { type: 'chooseDate', date: '2026-11-24' },
      { type: 'chooseTime', time: '09:00' },
    );
    expect(wizardReducer(s, { type: 'chooseDate', date: '2026-11-25' }).time).toBeNull();
    expect(wizardReducer(s, { type: 'chooseDate', date: '2026-11-24' }).time).toBe('09:00');
    expect(wizardReducer(s, { type: 'chooseType', typeId: 'b', today: null })).toEqual({ step: 2, typeId: 'b', date: null, time: null });
  });

  it('goes back down to step 1, never further; success only from step 3; reset starts over', () => {
    const s: WizardState = { step: 3, typeId: 'a', date: '2026-11-24', time: '09:00' };
    expect(wizardReducer(s, { type: 'back' }).step).toBe(2);
    expect(wizardReducer(wizardReducer(s, { type: 'back' }), { type: 'back' }).step).toBe(1);
    expect(wizardReducer({ ...s, step: 2 }, { type: 'booked' }).step).toBe(2);
    const done = wizardReducer(s, { type: 'booked' });
    expect(done.step).toBe(5);
    expect(wizardReducer(done, { type: 'back' }).step).toBe(5);
    expect(wizardReducer(done, { type: 'reset' })).toEqual(initialWizardState);
  });

  it('progress is step / 4 × 100', () => {
    expect([1, 2, 3, 5].map((s) => progressOf(s as 1))).toEqual([25, 50, 75, 100]);
  });
});

describe('booking toast from the email outcome', () => {
  it.each([
    [{ success: true }, 'toast.confirmationSent', undefined],
    [{ success: false, patientEmailError: 'P' }, 'toast.emailProblem', 'P'],
    [{ success: false, practiceEmailError: 'Q' }, 'toast.emailProblem', 'Q'],
    [{ success: false, patientEmailError: 'P', practiceEmailError: 'Q' }, 'toast.emailProblem', 'P Q'],
    [{ success: false, error: 'not set up' }, 'toast.emailConfig', 'not set up'],
    [{ success: false }, 'toast.emailConfig', undefined],
    [undefined, 'toast.emailFailed', undefined],
    [{ weird: 1 }, 'toast.emailFailed', undefined],
  ])('%j → %s', (email, description, detail) => {
    const spec = bookingToast(email as never);
    expect(spec.title).toBe('toast.bookingSuccess');
    expect(spec.description).toBe(description);
    expect(spec.detail).toBe(detail);
  });
});
