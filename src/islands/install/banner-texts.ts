/**
 * The install banner's texts, translated by the page: the island ships no
 * translation system of its own. Apart from the island so the page's import
 * of the key list does not land in the island's bundle.
 */
import type { TranslationKey } from '../../i18n/i18n';

export const BANNER_TEXT_KEYS = [
  'install.banner.title',
  'install.banner.text',
  'install.banner.install',
  'install.banner.dismiss',
  'install.banner.more',
  'install.banner.iosIntro',
  'install.banner.iosShare',
  'install.banner.iosAddToHome',
  'install.banner.iosAdd',
] as const satisfies readonly TranslationKey[];

export type BannerTexts = Record<(typeof BANNER_TEXT_KEYS)[number], string>;
