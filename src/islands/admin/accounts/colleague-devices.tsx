/**
 * "Benutzer" › Geräte: an admin sees a colleague's sessions and ends one or
 * all of them, e.g. after a lost phone (docs/decisions/037-passkeys-sessions-guessing.md).
 */
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { adminApi, failureText, type DeviceSessionDto, type StaffUserDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { ConfirmButton, FormDialog, Loading, secondaryButton } from '../shared/ui';
import { DeviceList } from './devices-section';

const L = labels.users;
const C = labels.common;

export function ColleagueDevices({ user }: { user: StaffUserDto }) {
  const [open, setOpen] = useState(false);
  const [sessions, setSessions] = useState<DeviceSessionDto[] | null>(null);

  async function load() {
    try {
      setSessions(await adminApi.sessions.ofColleague(user.id));
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
    }
  }
  useEffect(() => {
    if (open) void load();
    else setSessions(null);
  }, [open]);

  async function end(session: DeviceSessionDto) {
    try {
      await adminApi.sessions.endColleague(user.id, session.id);
      toast.success(labels.devices.ended);
      await load();
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
    }
  }

  async function endAll() {
    try {
      await adminApi.sessions.endAllOfColleague(user.id);
      toast.success(L.allEnded(user.email));
      await load();
    } catch (error) {
      toast.error(C.error, { description: failureText(error) });
    }
  }

  return (
    <>
      <button type="button" className={secondaryButton} aria-label={L.devicesNamed(user.email)} onClick={() => setOpen(true)}>
        {L.devices}
      </button>
      <FormDialog open={open} onOpenChange={setOpen} title={L.devicesTitle(user.email)} description={L.devicesText}>
        {sessions === null ? <Loading /> : <DeviceList sessions={sessions} onEnd={end} />}
        {sessions && sessions.length > 0 && (
          <div className="mt-4">
            <ConfirmButton label={L.endAll} title={labels.devices.endAllTitle} text={labels.devices.endAllText(user.email)} confirmLabel={L.endAll} className={secondaryButton} onConfirm={endAll} />
          </div>
        )}
      </FormDialog>
    </>
  );
}
