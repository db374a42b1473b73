/** The cancellation link's page in each language, read as without scripting (bookings/cancel-answer.server.ts). Filled in by the bundle (built-page.ts). */
import { languages, localizedPath } from '../../i18n/languages';
import type { BuiltPageSet } from './built-page';

export const cancelPages: BuiltPageSet = { paths: languages.map((lang) => localizedPath('/termin/absagen', lang)), scripting: false, bundled: {} };
