/**
 * Decap's side-by-side languages (i18n, structure multiple_folders) work
 * only for folder collections (`<folder>/<lang>/<slug>.md`), while each of
 * our pages has a schema of its own. So each page is a folder collection of
 * one entry under a folder that exists only in the editor; its backend
 * (praxis-backend.ts) maps `cms/seite-1/de/home.md` to src/content/de/home.md.
 *
 * The folder is numbered, not named after the page, because Decap finds a
 * file's language and twin by plain string replacement: a folder holding
 * "/home" or a name ending in "en" ("laboruntersuchungen/") would confuse it.
 */
import { CONTENT_PAGES, contentFileAt, pageFilePath, type ContentLanguage, type ContentPage } from '../../lib/content-files';

export function virtualFolder(page: ContentPage): string {
  return `cms/seite-${CONTENT_PAGES.indexOf(page) + 1}`;
}

export function virtualPath(page: ContentPage, lang: ContentLanguage): string {
  return `${virtualFolder(page)}/${lang}/${page}.md`;
}

/** The page of a virtual folder, or null. */
export function pageOfFolder(folder: string): ContentPage | null {
  const index = /^cms\/seite-(\d+)$/.exec(folder)?.[1];
  return index ? (CONTENT_PAGES[Number(index) - 1] ?? null) : null;
}

/** cms/seite-1/de/home.md → src/content/de/home.md; every other path stays as it is. */
export function realPath(path: string): string {
  const match = /^(cms\/seite-\d+)\/(de|en)\/([a-z]+)\.md$/.exec(path);
  const page = match ? pageOfFolder(match[1]!) : null;
  if (match && page === match[3]) {
    const real = pageFilePath(page, match[2] as ContentLanguage);
    if (contentFileAt(real)) return real;
  }
  return path;
}
