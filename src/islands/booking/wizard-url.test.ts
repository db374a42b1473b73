import { describe, expect, it } from 'vitest';
import { initialWizardState, wizardReducer } from './wizard-state';
import { searchOf, stateOf } from './wizard-url';

const ID = '11111111-1111-4111-8111-111111111111';

describe('wizard steps in the URL', () => {
  it('round-trips every step with the page language’s parameter names', () => {
    const s3 = { step: 3, typeId: ID, date: '2030-01-02', time: '09:20' } as const;
    expect(searchOf(s3, 'de')).toBe(`?schritt=3&typ=${ID}&datum=2030-01-02&zeit=09%3A20`);
    expect(searchOf(s3, 'en')).toBe(`?step=3&type=${ID}&date=2030-01-02&time=09%3A20`);
    for (const lang of ['de', 'en'] as const) {
      expect(stateOf(searchOf(s3, lang), lang)).toEqual(s3);
      const s2 = { step: 2, typeId: ID, date: null, time: null } as const;
      expect(stateOf(searchOf(s2, lang), lang)).toEqual(s2);
    }
  });

  it('a fresh wizard and the success screen have no parameters', () => {
    expect(searchOf(initialWizardState, 'de')).toBe('');
    expect(searchOf({ step: 5, typeId: ID, date: '2030-01-02', time: '09:20' }, 'en')).toBe('');
  });

  it('malformed or incomplete URLs fall back to the furthest step they describe', () => {
    expect(stateOf('?schritt=3', 'de')).toEqual(initialWizardState);
    expect(stateOf(`?schritt=3&typ=${ID}&datum=2030-01-02`, 'de')).toEqual({ step: 2, typeId: ID, date: '2030-01-02', time: null });
    expect(stateOf(`?schritt=3&typ=${ID}&datum=x&zeit=09:00`, 'de')).toEqual({ step: 2, typeId: ID, date: null, time: null });
    expect(stateOf(`?schritt=5&typ=${ID}&datum=2030-01-02&zeit=25:00`, 'de').step).toBe(2);
    expect(stateOf(`?typ=<script>`, 'de')).toEqual(initialWizardState);
    // The other language's names are understood (the language button keeps the query).
    expect(stateOf(`?step=2&type=${ID}`, 'de')).toEqual({ step: 2, typeId: ID, date: null, time: null });
    expect(stateOf(`?schritt=3&typ=${ID}&datum=2030-01-02&zeit=09:20`, 'en')).toEqual({ step: 3, typeId: ID, date: '2030-01-02', time: '09:20' });
  });

  it('never carries anything but type, date and time', () => {
    const search = searchOf({ step: 3, typeId: ID, date: '2030-01-02', time: '09:20' }, 'de');
    expect([...new URLSearchParams(search).keys()].sort()).toEqual(['datum', 'schritt', 'typ', 'zeit']);
  });
});

describe('a taken time in the state machine', () => {
  it('slotTaken from step 3 returns to step 2 with the time cleared, type and date kept', () => {
    const s = { step: 3, typeId: ID, date: '2030-01-02', time: '09:20' } as const;
    expect(wizardReducer(s, { type: 'slotTaken' })).toEqual({ step: 2, typeId: ID, date: '2030-01-02', time: null });
    expect(wizardReducer({ ...s, step: 2 }, { type: 'slotTaken' })).toEqual({ ...s, step: 2 });
  });
});
