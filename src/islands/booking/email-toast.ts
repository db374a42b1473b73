/**
 * Which toast a successful booking shows, from the response's `email`
 * outcome. The booking stands in every case.
 */
import type { TranslationKey } from '../../i18n/i18n';
import type { EmailOutcome } from '../../server/email/senders.server';

export type { EmailOutcome };

export interface ToastSpec {
  variant: 'success';
  title: TranslationKey;
  /** Translation key plus optional server text appended after it. */
  description: TranslationKey;
  detail?: string;
}

export function bookingToast(email: EmailOutcome | undefined | null): ToastSpec {
  const title: TranslationKey = 'toast.bookingSuccess';
  if (!email || typeof email !== 'object' || typeof email.success !== 'boolean') {
    // The function answered without an email report: a server-side failure.
    return { variant: 'success', title, description: 'toast.emailFailed' };
  }
  const problems = [email.patientEmailError, email.practiceEmailError].filter((e): e is string => !!e);
  if (problems.length > 0) return { variant: 'success', title, description: 'toast.emailProblem', detail: problems.join(' ') };
  if (!email.success) return { variant: 'success', title, description: 'toast.emailConfig', detail: email.error };
  return { variant: 'success', title, description: 'toast.confirmationSent' };
}
