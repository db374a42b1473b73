import { useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { labels } from '../admin/shared/labels';
import { takeFlash } from './auth-client';

/**
 * The toast area of a back-office page; shows a toast the previous page left
 * behind. Toasts sit at the bottom: at the top they covered the header's
 * controls (on a phone sonner stretches a toast across the whole width), and
 * a toast pauses while the pointer rests on it, so a control under it stayed
 * covered. The page keeps its bottom free for them (AdminLayout's padding,
 * FormDialog's height).
 */
export function BackOfficeToaster() {
  useEffect(() => {
    const flash = takeFlash();
    if (flash) toast.success(flash.title, { description: flash.description });
  }, []);
  return (
    <Toaster
      position="bottom-right"
      richColors
      closeButton
      duration={5000}
      containerAriaLabel={labels.toasts.region}
      toastOptions={{ closeButtonAriaLabel: labels.toasts.close }}
    />
  );
}
