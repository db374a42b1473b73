/**
 * The navigation's figure beside "Anfragen": how many requests are still
 * new (docs/decisions/036-patient-requests.md). Loaded with the page and
 * again when the queue changes; counts only.
 */
import { useEffect, useState } from 'react';
import { adminApi } from '../shared/admin-api';
import { REQUESTS_CHANGED } from './requests-page';

export function RequestCount({ collapsed }: { collapsed: boolean }) {
  const [count, setCount] = useState<number | null>(null);
  useEffect(() => {
    const load = () =>
      adminApi.requests
        .counts()
        .then((c) => setCount(c.new))
        .catch(() => setCount(null));
    void load();
    window.addEventListener(REQUESTS_CHANGED, load);
    return () => window.removeEventListener(REQUESTS_CHANGED, load);
  }, []);
  if (!count) return null;
  return (
    <span
      data-request-count
      className={`ml-auto rounded-full bg-brand-700 px-2 py-0.5 text-xs font-semibold text-white ${collapsed ? 'absolute -mt-6 ml-5' : ''}`}
    >
      {count}
      <span className="sr-only"> neu</span>
    </span>
  );
}
