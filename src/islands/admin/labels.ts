/**
 * The German labels of the back office (DESIGN.md: the admin area is German
 * only, with SPEC.md's texts). Kept here, not in src/i18n, because nothing
 * of it is ever shown in English.
 */
export const labels = {
  loading: 'Wird geladen …',
  login: {
    pageTitle: 'Admin-Anmeldung',
    intro: 'Melden Sie sich mit Ihren Zugangsdaten an.',
    email: 'E-Mail',
    password: 'Passwort',
    showPassword: 'Passwort anzeigen',
    hidePassword: 'Passwort verbergen',
    submit: 'Anmelden',
    submitting: 'Anmeldung läuft...',
    success: 'Erfolgreich angemeldet',
    failure: 'Anmeldung fehlgeschlagen',
    noAdminYet: 'Es gibt noch keinen Admin-Benutzer.',
    toSetup: 'Ersten Admin anlegen',
    backHome: 'Zur Startseite',
  },
  setup: {
    pageTitle: 'Admin einrichten',
    intro: 'Legen Sie den ersten Admin-Benutzer an.',
    email: 'E-Mail',
    password: 'Passwort',
    adminSecret: 'Admin-Geheimwort',
    hint: (secret: string) => `Hinweis: Das Standard-Geheimwort lautet „${secret}“.`,
    submit: 'Admin-Benutzer erstellen',
    submitting: 'Wird erstellt...',
    success: 'Admin-Benutzer erstellt!',
    successText: 'Sie können sich jetzt mit Ihren Daten anmelden.',
    failure: 'Fehler bei der Admin-Erstellung',
    error: 'Fehler',
    unknownError: 'Ein unbekannter Fehler ist aufgetreten',
    haveAccount: 'Bereits ein Konto?',
    toLogin: 'Hier anmelden',
  },
  errors: {
    'errors.emailRequired': 'Bitte geben Sie Ihre E-Mail-Adresse ein.',
    'errors.emailInvalid': 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
    'errors.passwordRequired': 'Bitte geben Sie Ihr Passwort ein.',
    'errors.passwordTooShort': 'Das Passwort muss mindestens 6 Zeichen haben.',
    'errors.passwordTooLong': 'Das Passwort ist zu lang.',
    'errors.adminSecretRequired': 'Bitte geben Sie das Admin-Geheimwort ein.',
  } as Record<string, string>,
  layout: {
    title: 'Admin Dashboard',
    toBooking: 'Zur Terminbuchung',
    signOut: 'Abmelden',
    signedOut: 'Erfolgreich abgemeldet',
    signOutFailed: 'Fehler beim Abmelden',
    toggleSidebar: 'Seitenleiste umschalten',
    navigation: 'Admin-Navigation',
    signedInAs: 'Angemeldet als',
  },
  nav: {
    dashboard: 'Dashboard',
    'appointment-types': 'Terminarten',
    'time-slots': 'Zeitfenster',
    'blocked-dates': 'Gesperrte Tage',
    'booked-slots': 'Gebuchte Termine',
    inventory: 'Inventarverwaltung',
  },
  dashboard: {
    bookedTotal: 'Gebuchte Termine gesamt',
    bookedToday: 'Termine heute',
    appointmentTypes: 'Terminarten',
    blockedDates: 'Gesperrte Tage',
    lowStock: 'Artikel mit niedrigem Bestand',
    quickLinks: 'Schnellzugriff',
    loadError: 'Fehler beim Laden',
  },
  shellPending: 'Diese Verwaltungsseite wird gerade aufgebaut.',
} as const;

export type AdminPage = keyof typeof labels.nav;

export function errorText(key: string | undefined): string | undefined {
  return key ? (labels.errors[key] ?? key) : undefined;
}
