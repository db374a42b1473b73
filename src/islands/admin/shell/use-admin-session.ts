/**
 * The protected-route state: loading while the session and the
 * admin role are checked, then no user → /auth, a non-admin → /, an admin
 * stays (signing in again leads back to the page). While the page is open the session is checked every 30 s and
 * refreshed when 90 s or less remain (docs/architecture.md, Security).
 */
import { useEffect, useRef, useState } from 'react';
import { SESSION_CHECK_INTERVAL_MS, currentSession, signInPath, type SessionInfo } from '../../auth/auth-client';

export type AdminSessionState = { status: 'loading' } | { status: 'admin'; session: SessionInfo };

export function useAdminSession(
  navigate: (path: string) => void = (p) => window.location.replace(p),
  /** This page is "Mein Konto", where an account that must set up its second factor does so. */
  enrolmentPage = false,
): AdminSessionState {
  const [state, setState] = useState<AdminSessionState>({ status: 'loading' });
  const known = useRef<SessionInfo | null>(null);

  useEffect(() => {
    let stopped = false;
    async function check() {
      let session: SessionInfo | null | 'ended';
      try {
        session = await currentSession(known.current);
      } catch (error) {
        // A failed check means not admin; a network blip on a
        // later tick keeps the page and tries again in 30 s.
        if (known.current) return;
        console.warn('session check failed', error);
        session = null;
      }
      if (stopped) return;
      known.current = session === 'ended' ? null : session;
      // Signed out: the sign-in page, which leads back here afterwards, query included (a booking opened from an email),
      // and says so when the session was ended on another device or by an admin (docs/decisions/041).
      if (!session || session === 'ended') navigate(signInPath(`${window.location.pathname}${window.location.search}`, { ended: session === 'ended' }));
      else if (!session.isAdmin) navigate('/');
      // The practice requires a second factor this account lacks: nothing but its enrolment (docs/decisions/027).
      else if (session.secondFactor === 'enrolment-required' && !enrolmentPage) navigate('/admin/konto');
      else setState({ status: 'admin', session });
    }
    void check();
    const timer = window.setInterval(() => void check(), SESSION_CHECK_INTERVAL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [navigate, enrolmentPage]);

  return state;
}
