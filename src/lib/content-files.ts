/**
 * The files the content editor may read and write: each page's Markdown in
 * both languages and the practice facts. Shared by the editor (browser) and
 * its server, which refuses every other path: the list is exact, so no
 * `..`, absolute path or other file of the repository can be named.
 */

/** The pages editors change, by file name (src/content/<lang>/<page>.md); their schemas: content-schemas.ts. */
export const CONTENT_PAGES = ['home', 'laboruntersuchungen', 'team', 'kontakt', 'impressum', 'datenschutz'] as const;
export type ContentPage = (typeof CONTENT_PAGES)[number];
export const CONTENT_LANGUAGES = ['de', 'en'] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];

/** The content editor's backend (netlify/functions/admin-content.ts). */
export const CONTENT_API = '/api/admin/content';
/** The state of the last publication (netlify/functions/admin-content-status.ts). */
export const CONTENT_STATUS_API = '/api/admin/content/status';

export const PRACTICE_FILE = 'src/content/practice.json';

export type ContentFile = { kind: 'page'; page: ContentPage; lang: ContentLanguage } | { kind: 'practice' };

export function pageFilePath(page: ContentPage, lang: ContentLanguage): string {
  return `src/content/${lang}/${page}.md`;
}

/** Every editable file, by its path in the repository. */
export const CONTENT_FILES: ReadonlyMap<string, ContentFile> = new Map<string, ContentFile>([
  ...CONTENT_PAGES.flatMap((page) => CONTENT_LANGUAGES.map((lang) => [pageFilePath(page, lang), { kind: 'page', page, lang }] as const)),
  [PRACTICE_FILE, { kind: 'practice' }],
]);

/** The editable file at `path`, or null for any other path. */
export function contentFileAt(path: unknown): ContentFile | null {
  return typeof path === 'string' ? (CONTENT_FILES.get(path) ?? null) : null;
}

/** German names of the pages and languages, for the editor, audit labels and messages. */
export const PAGE_LABELS: Record<ContentPage, string> = {
  home: 'Startseite',
  laboruntersuchungen: 'Laboruntersuchungen',
  team: 'Team',
  kontakt: 'Kontakt',
  impressum: 'Impressum',
  datenschutz: 'Datenschutzerklärung',
};
export const LANGUAGE_LABELS: Record<ContentLanguage, string> = { de: 'Deutsch', en: 'Englisch' };
export const PRACTICE_LABEL = 'Praxisangaben';

/** "Startseite (Deutsch)", "Praxisangaben". */
export function contentFileLabel(file: ContentFile): string {
  return file.kind === 'practice' ? PRACTICE_LABEL : `${PAGE_LABELS[file.page]} (${LANGUAGE_LABELS[file.lang]})`;
}
