/**
 * The booking wizard as the en page mounts it: with only the en texts of the
 * wizard's namespaces (wizard-namespaces.ts), not both whole dictionaries.
 */
import translation from 'virtual:island-translations/en/appointmentTypes,booking,bookingForm,datetime,errors,success,summary,toast';
import { createI18nInstance } from '../../i18n/i18n-instance';
import { BookingWizardWithI18n } from './booking-wizard';

const i18n = createI18nInstance('en', { en: translation });

export default function BookingWizardEn() {
  return <BookingWizardWithI18n lang="en" i18n={i18n} />;
}
