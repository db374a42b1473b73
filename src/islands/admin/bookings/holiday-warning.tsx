/**
 * The warning before staff book or move onto a closed day
 * (docs/decisions/039-public-holidays.md): the server answered 409
 * slot-unavailable `reason: "holiday"`, naming the day; staff may go on
 * (the request again with `confirm_holiday: true`) or pick another day.
 */
import { holidayLabels as H } from '../shared/holiday-labels';
import { primaryButton, secondaryButton } from '../shared/ui';

export interface WarnedHoliday {
  date: string;
  name: string;
  statutory: boolean;
}

export function HolidayWarning({ holiday, confirmText, busy, onConfirm, onOtherDay }: { holiday: WarnedHoliday; confirmText: string; busy: boolean; onConfirm: () => void; onOtherDay: () => void }) {
  return (
    <div role="alert" aria-labelledby="holiday-warning-title" className="rounded-md border border-amber-400 bg-amber-50 p-3 text-sm text-slate-900">
      <p id="holiday-warning-title" className="font-semibold">
        {H.warningTitle}
      </p>
      <p className="mt-1">{H.warning(holiday)}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className={primaryButton} disabled={busy} onClick={onConfirm}>
          {confirmText}
        </button>
        <button type="button" className={secondaryButton} onClick={onOtherDay}>
          {H.otherDay}
        </button>
      </div>
    </div>
  );
}
