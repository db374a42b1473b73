/**
 * Starts Decap CMS in the editor page: German, our backend, the preview in
 * the site's styles. This module is the editor's loader: everything it
 * imports is bundled apart from every public page's scripts
 * (src/integrations/content-editor-build.ts) and loads only here.
 */
import CMS from 'decap-cms-app';
import siteCss from '../../styles/global.css?inline';
import markdownCss from '../../styles/markdown-body.css?inline';
import type { CmsConfig } from './cms-config';
// Three columns on a wide window, one on a narrow one (Decap patched: patches/decap-cms-core+3.19.1.patch).
import './editor-layout.css';
import { GERMAN_OVERRIDES, withOverrides } from './german-phrases';
import { PagePreview } from './page-preview';
import PraxisBackend, { connectEditor, type EditorUser } from './praxis-backend';

export function startDecap(config: CmsConfig, user: EditorUser, signedOut: () => void): void {
  connectEditor(user, signedOut);
  // Decap's German with the project's corrections (german-phrases.ts), through Decap's own locale registry.
  const german = (CMS as unknown as { getLocale(l: string): Record<string, never> | undefined }).getLocale('de') ?? {};
  CMS.registerLocale('de', withOverrides(german, GERMAN_OVERRIDES) as never);
  CMS.registerBackend('praxis', PraxisBackend as never);
  // No media library: the site's pictures are not the editors' to change,
  // and Decap shows its "Medien" button unless a library says otherwise.
  CMS.registerMediaLibrary({ name: 'none', init: async () => ({ show() {}, hide() {}, onClearControl() {}, onRemoveControl() {}, enableStandalone: () => false }) } as never);
  CMS.registerPreviewStyle(siteCss, { raw: true });
  CMS.registerPreviewStyle(markdownCss, { raw: true });
  for (const collection of config.collections) {
    const name = 'files' in collection ? collection.files[0]!.name : collection.name;
    CMS.registerPreviewTemplate(name, PagePreview as never);
  }
  CMS.init({ config: config as never });
}
