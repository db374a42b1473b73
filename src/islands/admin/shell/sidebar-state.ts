/**
 * The sidebar's open state, kept in a cookie for 7 days, and
 * the 768 px breakpoint under which it becomes a drawer.
 */
import { useEffect, useState } from 'react';

export const SIDEBAR_COOKIE = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7;
export const MOBILE_BREAKPOINT = 768;

export function readSidebarOpen(cookie: string = document.cookie): boolean {
  const match = /(?:^|;\s*)sidebar_state=(true|false)/.exec(cookie);
  return match ? match[1] === 'true' : true;
}

export function writeSidebarOpen(open: boolean): void {
  document.cookie = `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}; samesite=strict`;
}

export function useIsMobile(): boolean {
  const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`;
  const [mobile, setMobile] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMobile(list.matches);
    list.addEventListener('change', update);
    update();
    return () => list.removeEventListener('change', update);
  }, [query]);
  return mobile;
}

/** Ctrl+B (Cmd+B on a Mac) toggles the sidebar. */
export function isSidebarShortcut(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}
