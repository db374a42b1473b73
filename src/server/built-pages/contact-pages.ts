/** The contact page in each language: the contact form's answers without JavaScript (contact-result.server.ts). Filled in by the bundle (built-page.ts). */
import { languages, localizedPath } from '../../i18n/languages';
import type { BuiltPageSet } from './built-page';

export const contactPages: BuiltPageSet = { paths: languages.map((lang) => localizedPath('/kontakt', lang)), scripting: true, bundled: {} };
