import { describe, expect, it } from 'vitest';
import { ALERT_REPEAT_MS, alertStep, type AlertState } from './operations-alerts';

const at = (minutes: number) => new Date(Date.UTC(2030, 0, 1, 8, 0) + minutes * 60_000);
const calm: AlertState = { since: null, alertedAt: null, episodeAlerted: false, clearedAt: null };

/** Runs a condition's course minute by minute; answers the messages and when. */
function course(failing: Array<[number, boolean]>): Array<[number, string]> {
  let state = calm;
  const sent: Array<[number, string]> = [];
  for (const [minute, fails] of failing) {
    const step = alertStep(state, fails, at(minute));
    if (step.message) sent.push([minute, step.message]);
    if (step.next) state = step.next;
  }
  return sent;
}

describe('alertStep', () => {
  it('nothing changes while all is well: nothing to write', () => {
    expect(alertStep(calm, false, at(0))).toEqual({ next: null, message: null });
  });

  it('alerts when it starts, again each full hour while it lasts, and once when it ends', () => {
    const minutes: Array<[number, boolean]> = [];
    for (let m = 0; m <= 130; m++) minutes.push([m, true]);
    minutes.push([131, false], [132, false]);
    expect(course(minutes)).toEqual([
      [0, 'alert'],
      [60, 'reminder'],
      [120, 'reminder'],
      [131, 'recovery'],
    ]);
  });

  it('a flap within the hour after an alert stays silent, and so does its end; a flap that outlasts the hour is announced as an alert', () => {
    expect(
      course([
        [0, true],
        [5, false],
        [10, true],
        [20, false],
        [30, true],
        [59, true],
        [60, true],
        [61, true],
        [70, false],
      ]),
    ).toEqual([
      [0, 'alert'],
      [5, 'recovery'],
      [60, 'alert'],
      [70, 'recovery'],
    ]);
  });

  it('the hour is exactly ALERT_REPEAT_MS: a minute short sends nothing', () => {
    const alerted = alertStep(calm, true, at(0)).next!;
    expect(alertStep(alerted, true, new Date(at(0).getTime() + ALERT_REPEAT_MS - 60_000))).toEqual({ next: null, message: null });
    expect(alertStep(alerted, true, new Date(at(0).getTime() + ALERT_REPEAT_MS)).message).toBe('reminder');
  });
});
