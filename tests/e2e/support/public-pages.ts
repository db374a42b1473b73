/** The public informational pages, in both languages. */
export interface PublicPage {
  de: string;
  en: string;
  h1: { de: string; en: string };
  /** Only the contact page hydrates an island. */
  island?: boolean;
}

export const publicPages: PublicPage[] = [
  { de: '/', en: '/en/', h1: { de: 'Ihre Hausarztpraxis in Düsseldorf', en: 'Your family practice in Düsseldorf' } },
  { de: '/laboruntersuchungen', en: '/en/laboruntersuchungen', h1: { de: 'Laboruntersuchungen', en: 'Lab tests' } },
  { de: '/team', en: '/en/team', h1: { de: 'Unser Team', en: 'Our team' } },
  { de: '/kontakt', en: '/en/kontakt', h1: { de: 'Kontakt', en: 'Contact' }, island: true },
  // The one page whose English twin has a name of its own.
  { de: '/anfrage', en: '/en/request', h1: { de: 'Rezept, Überweisung oder Rückruf', en: 'Prescription, referral or call-back' } },
  { de: '/impressum', en: '/en/impressum', h1: { de: 'Impressum', en: 'Legal notice' } },
  { de: '/datenschutz', en: '/en/datenschutz', h1: { de: 'Datenschutzerklärung', en: 'Privacy policy' } },
];

export const bothLanguages = publicPages.flatMap((p) => [
  { lang: 'de' as const, path: p.de, twin: p.en, h1: p.h1.de, island: !!p.island },
  { lang: 'en' as const, path: p.en, twin: p.de, h1: p.h1.en, island: !!p.island },
]);
