/**
 * schema.org structured data for the practice (a Physician's practice that
 * is also a MedicalClinic), built from practice.json only.
 */
import { localizedPath, type Lang } from '../i18n/languages';
import { schemaOrgOpeningHours } from './opening-hours';
import { telHref, type Practice } from './practice';

export function practiceStructuredData(practice: Practice, lang: Lang, site: URL | string) {
  const url = new URL(localizedPath('/', lang), site).href;
  return {
    '@context': 'https://schema.org',
    '@type': ['Physician', 'MedicalClinic'],
    '@id': `${new URL('/', site).href}#practice`,
    name: practice.name[lang],
    url,
    telephone: telHref(practice.phone).slice('tel:'.length),
    faxNumber: telHref(practice.fax).slice('tel:'.length),
    email: practice.email,
    medicalSpecialty: 'https://schema.org/PrimaryCare',
    availableLanguage: ['de', 'en'],
    address: {
      '@type': 'PostalAddress',
      streetAddress: practice.street,
      postalCode: practice.postalCode,
      addressLocality: practice.city,
      addressCountry: practice.country,
    },
    openingHoursSpecification: schemaOrgOpeningHours(practice),
    employee: { '@type': 'Person', name: practice.doctor },
  };
}

/** JSON for a <script type="application/ld+json">, safe against "</script>" in any value. */
export function jsonLd(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
