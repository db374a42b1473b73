/**
 * The contact form as the en page mounts it: with only the en texts of the
 * contact namespace, not both whole dictionaries (the weight budget, docs/decisions/007).
 */
import translation from 'virtual:island-translations/en/contact';
import { createI18nInstance } from '../../i18n/i18n-instance';
import { ContactFormWithI18n } from './contact-form';

const i18n = createI18nInstance('en', { en: translation });

export default function ContactFormEn() {
  return <ContactFormWithI18n lang="en" i18n={i18n} />;
}
