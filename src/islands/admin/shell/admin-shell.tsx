/**
 * The admin area: the protected-route guard,
 * header, collapsible sidebar and the page's content.
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { authApi, setFlash } from '../../auth/auth-client';
import { BackOfficeToaster } from '../../auth/toaster';
import { AccountPage } from '../accounts/account-page';
import { AppointmentTypesPage } from '../schedule/appointment-types-page';
import { AuditPage } from '../accounts/audit-page';
import { ContentEditor } from '../../content-editor/content-editor';
import { DayListPage } from '../bookings/day-list-page';
import { PasswordPage } from '../accounts/password-page';
import { UsersPage } from '../accounts/users-page';
import { BlockedDatesPage } from '../schedule/blocked-dates-page';
import { BookedSlotsPage } from '../bookings/booked-slots-page';
import { Dashboard } from './dashboard';
import { InventoryPage } from '../inventory/inventory-page';
import { TimeSlotsPage } from '../schedule/time-slots-page';
import { WeekPage } from '../bookings/week-page';
import { RequestsPage } from '../requests/requests-page';
import { RequestCount } from '../requests/request-count';
import { SystemPage } from '../system/system-page';
import { Icon } from '../shared/icons';
import { labels, type AdminPage } from '../shared/labels';
import { isSidebarShortcut, readSidebarOpen, useIsMobile, writeSidebarOpen } from './sidebar-state';
import { useAdminSession } from './use-admin-session';

export const ADMIN_PAGES: Array<{ page: AdminPage; href: string }> = [
  { page: 'dashboard', href: '/admin' },
  { page: 'appointment-types', href: '/admin/appointment-types' },
  { page: 'time-slots', href: '/admin/time-slots' },
  { page: 'blocked-dates', href: '/admin/blocked-dates' },
  { page: 'booked-slots', href: '/admin/booked-slots' },
  { page: 'requests', href: '/admin/anfragen' },
  { page: 'week', href: '/admin/woche' },
  { page: 'day-list', href: '/admin/day-list' },
  { page: 'inventory', href: '/admin/inventory' },
  { page: 'audit', href: '/admin/audit' },
  { page: 'users', href: '/admin/users' },
  { page: 'system', href: '/admin/system' },
  { page: 'content', href: '/admin/inhalte' },
  { page: 'password', href: '/admin/password' },
  { page: 'account', href: '/admin/konto' },
];

/** "Zur Terminbuchung": the patients' booking page, to book as a patient would or to check what patients see. */
export const BOOKING_PAGE = '/termin';

/** "Mein Konto", where an account the practice requires a second factor of must go first. */
export const ACCOUNT_PATH = '/admin/konto';

const PAGE_CONTENT: Record<AdminPage, (props: { userId: string; email: string; enrolmentRequired: boolean }) => ReactNode> = {
  dashboard: Dashboard,
  'appointment-types': AppointmentTypesPage,
  'time-slots': TimeSlotsPage,
  'blocked-dates': BlockedDatesPage,
  'booked-slots': BookedSlotsPage,
  requests: RequestsPage,
  inventory: InventoryPage,
  'day-list': DayListPage,
  week: WeekPage,
  audit: AuditPage,
  users: ({ userId }) => <UsersPage currentUserId={userId} />,
  password: PasswordPage,
  content: ContentEditor,
  account: ({ enrolmentRequired, email }) => <AccountPage enrolmentRequired={enrolmentRequired} email={email} />,
  system: SystemPage,
};

const L = labels.layout;
const navigate = (path: string) => window.location.replace(path);

export default function AdminShell({ page, children }: { page: AdminPage; children?: ReactNode }) {
  const state = useAdminSession(navigate, page === 'account');
  if (state.status === 'loading') {
    return (
      <div className="flex min-h-screen items-center justify-center" role="status" aria-live="polite">
        <span className="h-10 w-10 animate-spin rounded-full border-4 border-brand-100 border-t-brand-700" aria-hidden="true" />
        <span className="sr-only">{labels.loading}</span>
        <BackOfficeToaster />
      </div>
    );
  }
  const enrolmentRequired = state.session.secondFactor === 'enrolment-required';
  return (
    <AdminLayout page={page} email={state.session.user.email} enrolmentRequired={enrolmentRequired}>
      {children ?? <PageContent page={page} userId={state.session.user.id} email={state.session.user.email} enrolmentRequired={enrolmentRequired} />}
    </AdminLayout>
  );
}

function PageContent({ page, userId, email, enrolmentRequired }: { page: AdminPage; userId: string; email: string; enrolmentRequired: boolean }) {
  const Content = PAGE_CONTENT[page];
  return <Content userId={userId} email={email} enrolmentRequired={enrolmentRequired} />;
}

function NavLinks({
  page,
  collapsed,
  onNavigate,
  enrolmentRequired = false,
}: {
  page: AdminPage;
  collapsed: boolean;
  onNavigate?: () => void;
  enrolmentRequired?: boolean;
}) {
  // Until a required second factor is set up, "Mein Konto" is the only page that opens.
  const pages = enrolmentRequired ? ADMIN_PAGES.filter((p) => p.page === 'account') : ADMIN_PAGES;
  return (
    <ul className="space-y-1 p-2">
      {pages.map((item) => {
        const current = item.page === page;
        return (
          <li key={item.page}>
            <a
              href={item.href}
              onClick={onNavigate}
              aria-current={current ? 'page' : undefined}
              title={collapsed ? labels.nav[item.page] : undefined}
              className={`flex items-center gap-3 rounded-md px-2 py-2 text-sm font-medium ${
                current ? 'bg-brand-100 text-brand-800' : 'text-slate-700 hover:bg-slate-100'
              } ${collapsed ? 'justify-center' : ''}`}
            >
              <Icon name={item.page} className="h-5 w-5 shrink-0" />
              <span className={collapsed ? 'sr-only' : ''}>{labels.nav[item.page]}</span>
              {item.page === 'requests' && <RequestCount collapsed={collapsed} />}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function AdminLayout({
  page,
  email,
  enrolmentRequired = false,
  children,
}: {
  page: AdminPage;
  email: string;
  enrolmentRequired?: boolean;
  children: ReactNode;
}) {
  const mobile = useIsMobile();
  // The content editor needs the page's width (both languages and the
  // preview side by side): its navigation starts collapsed to icons, and
  // opening it there is not remembered for the other pages
  // (docs/decisions/031-content-editor-second-pass.md).
  const wideContent = page === 'content';
  const [open, setOpen] = useState(() => !wideContent && readSidebarOpen());
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  const toggle = useCallback(() => {
    if (mobile) setDrawerOpen((v) => !v);
    else
      setOpen((v) => {
        if (!wideContent) writeSidebarOpen(!v);
        return !v;
      });
  }, [mobile, wideContent]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isSidebarShortcut(event)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  async function signOut() {
    setSigningOut(true);
    try {
      await authApi.logout();
      setFlash({ title: L.signedOut });
      window.location.assign('/auth');
    } catch {
      toast.error(L.signOutFailed);
      setSigningOut(false);
    }
  }

  const expanded = mobile ? drawerOpen : open;

  return (
    <div className="flex min-h-screen w-full">
      <BackOfficeToaster />
      {!mobile && (
        // The aside stretches with the page, so its background reaches the bottom of a long one; the links inside stay in view.
        <aside
          aria-label={L.navigation}
          data-state={open ? 'expanded' : 'collapsed'}
          className={`shrink-0 self-stretch border-r print:hidden border-slate-200 bg-slate-50 transition-[width] duration-200 ${open ? 'w-64' : 'w-12'}`}
        >
          <nav aria-label={L.navigation} className="sticky top-0 max-h-screen overflow-y-auto">
            <NavLinks page={page} collapsed={!open} enrolmentRequired={enrolmentRequired} />
          </nav>
        </aside>
      )}
      {mobile && (
        <Dialog.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
            <Dialog.Content className="fixed inset-y-0 left-0 z-50 w-72 overflow-y-auto bg-slate-50 pb-28 shadow-xl focus:outline-none" aria-describedby={undefined}>
              <Dialog.Title className="px-4 pt-4 text-sm font-semibold text-slate-500">{L.navigation}</Dialog.Title>
              <nav aria-label={L.navigation}>
                <NavLinks page={page} collapsed={false} onNavigate={() => setDrawerOpen(false)} enrolmentRequired={enrolmentRequired} />
              </nav>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        {/*
          On a phone the email gets its own line and the two actions show as
          icons (their names stay for screen readers and as tooltips), so
          nothing overlaps, wraps or is cut to a letter at 320 px.
        */}
        <header className="grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-2 gap-y-1 border-b border-slate-200 bg-white px-3 py-3 sm:gap-x-3 sm:px-4 print:hidden">
          <button
            type="button"
            onClick={toggle}
            aria-label={L.toggleSidebar}
            aria-expanded={expanded}
            title="Strg/⌘ + B"
            className="col-start-1 row-start-1 justify-self-start rounded-md p-1.5 text-slate-600 hover:bg-slate-100 sm:row-span-2"
          >
            <Icon name="sidebar" />
          </button>
          {/* The page's name, as the sidebar calls it (the page's own h1 below says the same in full). */}
          <p className="col-start-2 row-start-1 truncate text-base font-semibold sm:text-lg">{labels.nav[page]}</p>
          <p className="col-span-3 col-start-1 row-start-2 truncate text-sm text-slate-600 sm:col-span-1 sm:col-start-2">
            <span className="sr-only">{L.signedInAs} </span>
            {email}
          </p>
          <div className="col-start-3 row-start-1 flex items-center gap-2 sm:row-span-2">
            <a
              href={BOOKING_PAGE}
              title={L.toBooking}
              className="inline-flex items-center gap-2 whitespace-nowrap rounded-md border border-slate-300 p-1.5 text-sm font-medium hover:bg-slate-50 sm:px-3"
            >
              <Icon name="home" className="h-5 w-5 sm:hidden" />
              {/* Its own colour: on the content editor's page Decap's global styles grey every link (#798291, 3.9:1), and they win over utility classes. */}
              <span className="sr-only text-slate-800 sm:not-sr-only">{L.toBooking}</span>
            </a>
            <button
              type="button"
              onClick={() => void signOut()}
              disabled={signingOut}
              title={L.signOut}
              className="inline-flex items-center gap-2 whitespace-nowrap rounded-md bg-brand-700 p-1.5 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60 sm:px-3"
            >
              <Icon name="sign-out" className="h-5 w-5 sm:hidden" />
              <span className="sr-only sm:not-sr-only">{L.signOut}</span>
            </button>
          </div>
        </header>
        <main id="main" className={wideContent ? 'min-w-0 flex-1 p-2 md:p-3' : 'flex-1 p-4 pb-28 md:p-6 md:pb-28 print:p-0'}>
          {children}
        </main>
      </div>
    </div>
  );
}
