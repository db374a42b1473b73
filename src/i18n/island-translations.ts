/**
 * Vite plugin: `import translation from 'virtual:island-translations/de/booking,toast'`
 * gives the German dictionary restricted to the keys of those namespaces, so
 * an island ships only the texts it can show (the page-weight budget, docs/decisions/007), while the
 * one JSON file per language stays the single source.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { isLang } from './languages';

const PREFIX = 'virtual:island-translations/';

/** The entries whose key starts with one of the namespaces (`booking.…`). */
export function pickNamespaces(dictionary: Record<string, string>, namespaces: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(dictionary).filter(([key]) => namespaces.includes(key.split('.')[0]!)));
}

export default function islandTranslations(): Plugin {
  return {
    name: 'island-translations',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const [lang, list = ''] = id.slice(PREFIX.length + 1).split('/');
      if (!isLang(lang)) throw new Error(`${id}: unknown language`);
      const file = fileURLToPath(new URL(`./${lang}.json`, import.meta.url));
      this.addWatchFile(file);
      const dictionary = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
      return `export default ${JSON.stringify(pickNamespaces(dictionary, list.split(',')))};`;
    },
  };
}
