/** The request page in each language: the request form's answers without JavaScript (requests/form-answer.server.ts). Filled in by the bundle (built-page.ts). */
import { languages, localizedPath } from '../../i18n/languages';
import type { BuiltPageSet } from './built-page';

export const requestPages: BuiltPageSet = { paths: languages.map((lang) => localizedPath('/anfrage', lang)), scripting: true, bundled: {} };
