/**
 * Decap CMS's German, where it reads wrong or clumsy on the editor's
 * screens ("Zurück zu allen Startseite", "Überprüfen ob eine Vorschau
 * vorhanden ist", "Oops, einige …", typos, du and Sie mixed), replaced
 * through Decap's own locale mechanism: its German phrases with these laid
 * over them, registered as 'de' before the editor starts. The list and the
 * reasons: docs/decisions/031-content-editor-second-pass.md.
 */

type Phrases = { [key: string]: string | Phrases };

export const GERMAN_OVERRIDES = {
  auth: { loggingIn: 'Anmeldung läuft …' },
  app: {
    header: { content: 'Inhalte' },
    app: {
      errorHeader: 'Der Inhalte-Editor konnte nicht geladen werden.',
      checkConfigYml: 'Bitte wenden Sie sich an die Person, die die Website betreut.',
      loadingConfig: 'Der Editor wird geladen …',
      waitingBackend: 'Verbindung zum Server wird hergestellt …',
    },
  },
  collection: {
    sidebar: { collections: 'Seiten', allCollections: 'allen Seiten', searchAll: 'Alle Seiten durchsuchen' },
    entries: {
      loadingEntries: 'Die Seite wird geladen …',
      cachingEntries: 'Die Seiten werden vorbereitet …',
      longerLoading: 'Das kann einen Moment dauern.',
      noEntries: 'Keine Einträge',
    },
  },
  editor: {
    editorControlPane: {
      widget: {
        required: '„%{fieldLabel}“ muss ausgefüllt sein.',
        regexPattern: '„%{fieldLabel}“: %{pattern}',
        rangeCount: '„%{fieldLabel}“ braucht %{minCount} bis %{maxCount} Einträge.',
        rangeCountExact: '„%{fieldLabel}“ braucht genau %{count} Einträge.',
        rangeMin: '„%{fieldLabel}“ braucht mindestens %{minCount} Einträge.',
        rangeMax: '„%{fieldLabel}“ darf höchstens %{maxCount} Einträge haben.',
      },
      i18n: {
        writingInLocale: 'Sprache: %{locale}',
        copyFromLocale: 'Text aus der anderen Sprache übernehmen',
        copyFromLocaleConfirm: 'Den Text aus der Sprache „%{locale}“ übernehmen? Was in dieser Sprache steht, wird dabei ersetzt.',
      },
    },
    editor: {
      onLeavePage: 'Es gibt ungespeicherte Änderungen. Die Seite trotzdem verlassen?',
      onPublishingWithUnsavedChanges: 'Es gibt ungespeicherte Änderungen. Bitte speichern Sie sie vor dem Veröffentlichen.',
      onPublishing: 'Die Änderungen jetzt veröffentlichen?',
      loadingEntry: 'Die Seite wird geladen …',
      confirmLoadBackup: 'In diesem Browser gibt es für diese Seite noch ungespeicherte Änderungen von vorhin. Sollen sie wiederhergestellt werden?',
    },
    editorInterface: {
      toggleI18n: 'Zweite Sprache ein- oder ausblenden',
      togglePreview: 'Vorschau ein- oder ausblenden',
      toggleScrollSync: 'Beide Spalten gemeinsam scrollen',
    },
    editorToolbar: {
      // Decap says "Veröffentlicht" the moment a save is committed; the site is live only once the
      // build is (the state above the editor). The badge says what is certain, so both agree.
      published: 'Gespeichert',
      publishing: 'Wird veröffentlicht …',
      saving: 'Wird gespeichert …',
      backCollection: 'Zurück zur Übersicht: %{collectionLabel}',
      deployPreviewPendingButtonLabel: 'Prüfen, ob eine Vorschau bereitsteht',
      deployPreviewButtonLabel: 'Vorschau ansehen',
      deployButtonLabel: 'Veröffentlichte Seite ansehen',
    },
    editorWidgets: {
      markdown: {
        linkPrompt: 'Ziel des Links eingeben (https://…, mailto:…, tel:… oder eine Seite wie /termin)',
        bulletedList: 'Aufzählung',
        richText: 'Formatiert',
        markdown: 'Markdown (Quelltext)',
      },
      datetime: { now: 'Heute', clear: 'Leeren' },
    },
  },
  ui: {
    errorBoundary: {
      details: 'Ein Fehler ist aufgetreten – bitte ',
      reportIt: 'melden Sie ihn.',
      privacyWarning:
        'Ein Fehlerbericht enthält automatisch die Fehlermeldung und technische Angaben.\nBitte prüfen Sie, ob sie stimmen, und entfernen Sie vertrauliche Angaben.',
      recoveredEntry: { heading: 'Wiederhergestellte Seite', copyButtonLabel: 'In die Zwischenablage kopieren' },
    },
    toast: {
      onFailToLoadEntries: 'Die Seite konnte nicht geladen werden: %{details}',
      onFailToPersist: 'Speichern fehlgeschlagen: %{details}',
      missingRequiredField: 'Bitte füllen Sie alle Pflichtfelder aus; die betroffenen Felder sind rot markiert.',
      entrySaved: 'Gespeichert',
      entryPublished: 'Gespeichert – die Veröffentlichung läuft; ihr Stand steht über dem Editor.',
      onFailToPublishEntry: 'Veröffentlichen fehlgeschlagen: %{details}',
      onLoggedOut: 'Sie wurden abgemeldet. Bitte sichern Sie Ihre Änderungen und melden Sie sich erneut an.',
      onBackendDown: 'Der Server ist gerade nicht erreichbar: %{details}',
    },
  },
} satisfies Phrases;

/** `base` with every phrase of `overrides` laid over it (a new object; `base` is left as it is). */
export function withOverrides(base: Phrases, overrides: Phrases): Phrases {
  const out: Phrases = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = out[key];
    out[key] = typeof value === 'string' || typeof current !== 'object' ? value : withOverrides(current, value);
  }
  return out;
}
