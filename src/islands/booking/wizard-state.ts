/**
 * The wizard's state machine: steps 1–3, then success (5).
 * Forward only when a step is complete; back down to step 1; a new type
 * clears date and time; a new date clears the time; 'new booking' resets.
 */
export type Step = 1 | 2 | 3 | 5;

export interface WizardState {
  step: Step;
  typeId: string | null;
  date: string | null;
  time: string | null;
}

export type WizardAction =
  | { type: 'chooseType'; typeId: string; today: string | null }
  | { type: 'chooseDate'; date: string | null }
  | { type: 'chooseTime'; time: string | null }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'booked' }
  | { type: 'reset' }
  /** The chosen time was taken meanwhile: back to the calendar, time cleared. */
  | { type: 'slotTaken' }
  /** A history entry or the URL on load (wizard-url.ts). */
  | { type: 'restore'; state: WizardState };

export const initialWizardState: WizardState = { step: 1, typeId: null, date: null, time: null };

export const TOTAL_STEPS = 4;

export function canGoNext(state: WizardState): boolean {
  if (state.step === 1) return state.typeId !== null;
  if (state.step === 2) return state.date !== null && state.time !== null;
  return false;
}

/** progress = step / 4 × 100; the success screen counts as the fourth step. */
export function progressOf(step: Step): number {
  return (Math.min(step, TOTAL_STEPS) / TOTAL_STEPS) * 100;
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'chooseType':
      // Choosing a type moves on to the date; a same-day type preselects today.
      return { step: 2, typeId: action.typeId, date: action.today, time: null };
    case 'chooseDate':
      return action.date === state.date ? state : { ...state, date: action.date, time: null };
    case 'chooseTime':
      return action.time === state.time ? state : { ...state, time: action.time };
    case 'next':
      return canGoNext(state) ? { ...state, step: (state.step + 1) as Step } : state;
    case 'back':
      return state.step === 2 || state.step === 3 ? { ...state, step: (state.step - 1) as Step } : state;
    case 'booked':
      return state.step === 3 ? { ...state, step: 5 } : state;
    case 'reset':
      return initialWizardState;
    case 'slotTaken':
      return state.step === 3 ? { ...state, step: 2, time: null } : state;
    case 'restore':
      return action.state;
  }
}
