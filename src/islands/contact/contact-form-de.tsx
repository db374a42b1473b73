/**
 * The contact form as the de page mounts it: with only the de texts of the
 * contact namespace, not both whole dictionaries (the weight budget, docs/decisions/007).
 */
import translation from 'virtual:island-translations/de/contact';
import { createI18nInstance } from '../../i18n/i18n-instance';
import { ContactFormWithI18n } from './contact-form';

const i18n = createI18nInstance('de', { de: translation });

export default function ContactFormDe() {
  return <ContactFormWithI18n lang="de" i18n={i18n} />;
}
