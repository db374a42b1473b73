import { describe, expect, it } from 'vitest';
import { formatDays, openingHoursRows } from './opening-hours';
import { practice } from './practice';
import { jsonLd, practiceStructuredData } from './structured-data';

describe('practiceStructuredData', () => {
  it('describes the practice as Physician and MedicalClinic with address and opening hours from practice.json', () => {
    const data = practiceStructuredData(practice, 'en', 'https://praxis.example');
    expect(data['@type']).toEqual(['Physician', 'MedicalClinic']);
    expect(data.name).toBe(practice.name.en);
    expect(data.url).toBe('https://praxis.example/en/');
    expect(data.address).toEqual({
      '@type': 'PostalAddress',
      streetAddress: practice.street,
      postalCode: practice.postalCode,
      addressLocality: practice.city,
      addressCountry: practice.country,
    });
    expect(data.telephone).toMatch(/^\+49\d+$/);
    expect(data.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'].map((d) => `https://schema.org/${d}`),
        opens: '08:20',
        closes: '13:40',
      },
    ]);
  });

  it('cannot be broken out of its script element', () => {
    expect(jsonLd({ name: '</script><script>alert(1)</script>' })).not.toContain('</script>');
    expect(JSON.parse(jsonLd({ name: '</script>' }))).toEqual({ name: '</script>' });
  });
});

describe('opening hours', () => {
  it.each([
    [[1, 2, 3, 4, 5], 'de', 'Montag bis Freitag'],
    [[1, 2, 3, 4, 5], 'en', 'Monday to Friday'],
    [[1, 3], 'de', 'Montag, Mittwoch'],
    [[6], 'en', 'Saturday'],
    [[0], 'de', 'Sonntag'],
  ] as const)('%j in %s is %s', (days, lang, expected) => {
    expect(formatDays(days, lang)).toBe(expected);
  });

  it('shows Monday to Friday 08:20–13:40', () => {
    expect(openingHoursRows(practice, 'de')).toEqual([{ days: 'Montag bis Freitag', hours: '08:20–13:40' }]);
  });
});
