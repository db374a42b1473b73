/**
 * What the patient typed and ticked in step 3, kept for a reload of this tab only
 * (docs/decisions/029): sessionStorage (never localStorage, never the URL),
 * written as they type, restored when the page is reloaded or reached again
 * by Back/Forward within the tab, and removed on success, when the patient
 * follows a link away from the wizard, and on any fresh visit to the page.
 * No module here imports React: the page's start-up script uses it too.
 */
const KEY = 'bookingWizard.details';

/** The form's text fields that are kept. */
const FIELDS = ['first_name', 'last_name', 'birth_date', 'phone', 'email'] as const;
/** Its ticks: the consent, the reminder and SMS, kept when ticked, so a reload does not untick what the patient ticked. */
const TICKS = ['consent', 'reminder', 'sms'] as const;

export type StoredDetails = Partial<Record<(typeof FIELDS)[number], string> & Record<(typeof TICKS)[number], true>>;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function saveDetails(values: Record<string, unknown>): void {
  const kept: StoredDetails = {};
  for (const field of FIELDS) if (typeof values[field] === 'string' && values[field]) kept[field] = values[field] as string;
  for (const tick of TICKS) if (values[tick] === true) kept[tick] = true;
  try {
    if (Object.keys(kept).length === 0) storage()?.removeItem(KEY);
    else storage()?.setItem(KEY, JSON.stringify(kept));
  } catch {
    // Storage full or blocked: a reload then starts with an empty form, as before.
  }
}

export function loadDetails(): StoredDetails | null {
  try {
    const parsed = JSON.parse(storage()?.getItem(KEY) ?? 'null') as unknown;
    if (!parsed || typeof parsed !== 'object') return null;
    const kept: StoredDetails = {};
    for (const field of FIELDS) {
      const value = (parsed as Record<string, unknown>)[field];
      if (typeof value === 'string') kept[field] = value;
    }
    for (const tick of TICKS) if ((parsed as Record<string, unknown>)[tick] === true) kept[tick] = true;
    return kept;
  } catch {
    return null;
  }
}

export function clearDetails(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Blocked storage holds nothing.
  }
}

/**
 * Called once when the page starts: a fresh visit (a link, a typed address)
 * forgets what an earlier visit in this tab left; a reload or Back/Forward
 * keeps it. Following a link away from the page forgets it at once.
 */
export function startDetailsLifecycle(): void {
  const [entry] = performance.getEntriesByType?.('navigation') ?? [];
  const type = (entry as PerformanceNavigationTiming | undefined)?.type;
  if (type !== 'reload' && type !== 'back_forward') clearDetails();
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
    if (!link || link.hasAttribute('download') || link.href.startsWith('data:') || link.href.startsWith('tel:') || link.href.startsWith('mailto:')) return;
    const to = new URL(link.href, window.location.href);
    if (to.origin === window.location.origin && to.pathname === window.location.pathname) return;
    clearDetails();
  });
}
