/** "Protokoll": who changed what and when, newest first, filterable by user and kind. */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { AUDIT_ENTITIES } from '../../../lib/audit';
import { adminApi, type AuditEntryDto, type StaffUserDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { inputClass, ListTable, PageHeader } from '../shared/ui';

const L = labels.audit;
const when = new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', dateStyle: 'medium', timeStyle: 'medium' });

export function AuditPage() {
  const [user, setUser] = useState('');
  const [kind, setKind] = useState('');
  const [users, setUsers] = useState<StaffUserDto[]>([]);
  const [entries, setEntries] = useState<AuditEntryDto[] | null>(null);

  useEffect(() => {
    adminApi.users.list().then(setUsers, () => setUsers([]));
  }, []);
  useEffect(() => {
    let live = true;
    adminApi.audit({ user, kind }).then(
      (rows) => live && setEntries(rows),
      () => {
        if (!live) return;
        setEntries([]);
        toast.error(labels.common.error, { description: L.loadError });
      },
    );
    return () => {
      live = false;
    };
  }, [user, kind]);

  return (
    <>
      <PageHeader title={labels.nav.audit} intro={L.intro} />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor="audit-user" className="block text-sm font-medium">
            {L.user}
          </label>
          <select id="audit-user" className={inputClass} value={user} onChange={(e) => setUser(e.target.value)}>
            <option value="">{L.all}</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="audit-kind" className="block text-sm font-medium">
            {L.kind}
          </label>
          <select id="audit-kind" className={inputClass} value={kind} onChange={(e) => setKind(e.target.value)}>
            <option value="">{L.all}</option>
            {AUDIT_ENTITIES.map((k) => (
              <option key={k} value={k}>
                {L.kinds[k]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ListTable
        loaded={entries !== null}
        total={user || kind ? 1 : (entries?.length ?? 0)}
        shown={entries?.length ?? 0}
        text={L}
        columns={[L.at, L.user, L.kind, L.action, L.entry]}
      >
        {(entries ?? []).map((e) => (
          <tr key={e.id}>
            <td className="px-3 py-2 whitespace-nowrap">{when.format(new Date(e.at))}</td>
            <td className="px-3 py-2">{e.user_email}</td>
            <td className="px-3 py-2">{L.kinds[e.entity] ?? e.entity}</td>
            <td className="px-3 py-2">{L.actions[e.action] ?? e.action}</td>
            <td className="px-3 py-2">
              {/* Entries from before labels existed name their thing only by id. */}
              {e.label ?? <span className="font-mono text-xs text-slate-600">{e.entity_id}</span>}
            </td>
          </tr>
        ))}
      </ListTable>
    </>
  );
}
