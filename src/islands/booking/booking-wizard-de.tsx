/**
 * The booking wizard as the de page mounts it: with only the de texts of the
 * wizard's namespaces (wizard-namespaces.ts), not both whole dictionaries.
 * The page renders the default export as static HTML; wizard-boot.ts calls
 * `mount` when the visitor turns to the wizard.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import translation from 'virtual:island-translations/de/appointmentTypes,booking,bookingForm,datetime,errors,success,summary,toast';
import { createI18nInstance } from '../../i18n/i18n-instance';
import { BookingWizardWithI18n, type WizardHandover } from './booking-wizard';

const i18n = createI18nInstance('de', { de: translation });

export default function BookingWizardDe({ handover }: { handover?: WizardHandover }) {
  return <BookingWizardWithI18n lang="de" i18n={i18n} handover={handover} />;
}

/** Renders the wizard into `element` in place of the page's static step 1, synchronously (focus is restored next). */
export function mount(element: HTMLElement, handover: WizardHandover) {
  const root = createRoot(element);
  flushSync(() => root.render(<BookingWizardDe handover={handover} />));
}
