/**
 * The translation namespaces the booking wizard shows (its steps, toasts and
 * the error keys of the shared schemas). The wrappers import only these;
 * wizard-namespaces.test.ts keeps the list complete.
 */
export const WIZARD_NAMESPACES = ['appointmentTypes', 'booking', 'bookingForm', 'datetime', 'errors', 'success', 'summary', 'toast'] as const;
