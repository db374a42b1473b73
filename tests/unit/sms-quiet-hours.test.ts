/**
 * Quiet hours of SMS (docs/decisions/043-sms-second-channel.md): 20:00–07:00
 * Berlin, whatever the server's zone, across the daylight-saving nights and
 * the year's end; a cancellation may go at night only when its appointment
 * starts before noon of the next day.
 */
import { describe, expect, it } from 'vitest';
import { firstAttemptAt, inQuietHours, mayGoAtNight, quietHoursEnd } from '../../src/server/sms/quiet-hours.server';

const at = (iso: string) => new Date(iso);

describe('quiet hours', () => {
  it.each([
    ['2030-01-07T19:59:00+01:00', false],
    ['2030-01-07T20:00:00+01:00', true],
    ['2030-01-08T06:59:00+01:00', true],
    ['2030-01-08T07:00:00+01:00', false],
  ])('%s quiet: %s', (iso, quiet) => {
    expect(inQuietHours(at(iso))).toBe(quiet);
  });

  it.each([
    // An evening: the next morning at 07:00.
    ['2030-01-07T21:00:00+01:00', '2030-01-08T07:00:00+01:00'],
    // After midnight: the same morning.
    ['2030-01-08T02:30:00+01:00', '2030-01-08T07:00:00+01:00'],
    // The spring night (clocks go forward at 02:00): 07:00 summer time.
    ['2030-03-30T22:00:00+01:00', '2030-03-31T07:00:00+02:00'],
    // The autumn night (02:00–03:00 twice): 07:00 winter time.
    ['2030-10-26T23:30:00+02:00', '2030-10-27T07:00:00+01:00'],
    // New Year's Eve.
    ['2030-12-31T20:15:00+01:00', '2031-01-01T07:00:00+01:00'],
    // Outside the quiet hours: now.
    ['2030-01-07T12:00:00+01:00', '2030-01-07T12:00:00+01:00'],
  ])('queued at %s goes at %s', (queued, goes) => {
    expect(quietHoursEnd(at(queued)).toISOString()).toBe(at(goes).toISOString());
    expect(firstAttemptAt(at(queued), false).toISOString()).toBe(at(goes).toISOString());
    expect(firstAttemptAt(at(queued), true).toISOString()).toBe(at(queued).toISOString());
  });

  it('a cancellation goes at night only for an appointment before noon of the next day', () => {
    const night = at('2030-01-07T21:00:00+01:00');
    const cancel = (date: string, time: string) => mayGoAtNight({ kind: 'cancelled-by-practice', date, time }, night);
    expect(cancel('2030-01-08', '08:20')).toBe(true);
    expect(cancel('2030-01-08', '11:40')).toBe(true);
    expect(cancel('2030-01-08', '12:00')).toBe(false);
    expect(cancel('2030-01-09', '08:20')).toBe(false);
    // Shortly after midnight "the next day" is the following one: the same morning and the next morning go.
    expect(mayGoAtNight({ kind: 'cancelled-by-practice', date: '2030-01-08', time: '15:00' }, at('2030-01-08T00:30:00+01:00'))).toBe(true);
    // A move or a reminder always waits.
    expect(mayGoAtNight({ kind: 'moved-by-practice', date: '2030-01-08', time: '08:20', old: { date: '2030-01-08', time: '09:00' }, link: false }, night)).toBe(false);
    expect(mayGoAtNight({ kind: 'reminder', date: '2030-01-08', time: '08:20', link: false }, night)).toBe(false);
  });
});
