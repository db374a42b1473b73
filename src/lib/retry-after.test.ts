import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, waitPhrase } from './retry-after';

describe('Retry-After for patients', () => {
  it('reads seconds or an HTTP date; nothing readable is null', () => {
    const now = Date.parse('2030-01-07T10:00:00Z');
    expect(retryAfterSeconds('120', now)).toBe(120);
    expect(retryAfterSeconds(' 5 ', now)).toBe(5);
    expect(retryAfterSeconds('Mon, 07 Jan 2030 10:03:00 GMT', now)).toBe(180);
    expect(retryAfterSeconds('Mon, 07 Jan 2030 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds('soon', now)).toBeNull();
  });

  it.each([
    [45, 'in 45 Sekunden', 'in 45 seconds'],
    [120, 'in 2 Minuten', 'in 2 minutes'],
    [61, 'in 2 Minuten', 'in 2 minutes'],
    [3600, 'in 1 Stunde', 'in 1 hour'],
    [0, 'in 1 Sekunde', 'in 1 second'],
  ])('%i s is said, rounded up, in the patient\'s language', (seconds, de, en) => {
    expect(waitPhrase(seconds, 'de')).toBe(de);
    expect(waitPhrase(seconds, 'en')).toBe(en);
  });
});
