/**
 * The way onto the waitlist from the booking pages (docs/decisions/032):
 * the success screen, the link page, the move page ("Früheren Termin
 * gewünscht") and the wizard's calendar when nothing fits ("Auf die
 * Warteliste"). A plain link: the waitlist page draws itself with its own small script.
 */
import { localizedPath, type Lang } from '../../i18n/languages';
import { waitlistText } from '../../lib/waitlist-texts';

export function WaitlistLink({ lang, query, className = '' }: { lang: Lang; query: Record<string, string>; className?: string }) {
  const href = `${localizedPath('/termin/warteliste', lang)}?${new URLSearchParams(query)}`;
  const label = waitlistText(lang, 'type' in query ? 'waitlist.ask.openNoBooking' : 'waitlist.ask.open');
  return (
    <p className={className}>
      <a href={href} className="font-semibold text-brand-800 underline">
        {label}
      </a>
    </p>
  );
}
