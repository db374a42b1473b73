/**
 * The booking wizard as the de page mounts it: with only the de texts of the
 * wizard's namespaces (wizard-namespaces.ts), not both whole dictionaries.
 */
import translation from 'virtual:island-translations/de/appointmentTypes,booking,bookingForm,datetime,errors,success,summary,toast';
import { createI18nInstance } from '../../i18n/i18n-instance';
import { BookingWizardWithI18n } from './booking-wizard';

const i18n = createI18nInstance('de', { de: translation });

export default function BookingWizardDe() {
  return <BookingWizardWithI18n lang="de" i18n={i18n} />;
}
