import { useEffect } from 'react';
import { Toaster, toast } from 'sonner';
import { takeFlash } from './auth-client';

/** The toast area of a back-office page; shows a toast the previous page left behind. */
export function BackOfficeToaster() {
  useEffect(() => {
    const flash = takeFlash();
    if (flash) toast.success(flash.title, { description: flash.description });
  }, []);
  return <Toaster position="top-right" richColors closeButton duration={5000} />;
}
