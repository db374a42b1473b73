/**
 * Building blocks of the admin pages: the form dialog and the delete
 * confirmation (Radix: focus trapped and returned to the opener, Escape
 * closes, dialog/alertdialog roles with title and description), labelled
 * fields that announce their errors, and the page header.
 */
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Dialog from '@radix-ui/react-dialog';
import { Children, cloneElement, isValidElement, useEffect, useLayoutEffect, useRef, useState, type ReactElement, type ReactNode } from 'react';
import { toast } from 'sonner';
import { inputClass } from '../../auth/password-input';
import { ApiError, failureText } from './admin-api';
import { labels } from './labels';

export { inputClass };

const C = labels.common;

export const primaryButton =
  'inline-flex items-center justify-center rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:opacity-60';
export const secondaryButton =
  'inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50';
export const dangerButton =
  'inline-flex items-center justify-center rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50';

export function PageHeader({ title, intro, action }: { title: string; intro?: string; action?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {intro && <p className="mt-1 text-slate-600">{intro}</p>}
      </div>
      {action}
    </div>
  );
}

/** The "Drucken" of a printable page (the day list, the week view). */
export function PrintButton() {
  return (
    <button type="button" className={secondaryButton} onClick={() => window.print()}>
      {C.print}
    </button>
  );
}

export function Loading() {
  return (
    <p role="status" className="text-slate-600">
      {labels.loading}
    </p>
  );
}

/** A modal form; it closes on Escape and returns focus to the button that opened it. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  children: ReactNode;
}) {
  // Opened from plain buttons (one dialog serves "new" and every "edit"), so
  // Radix has no Trigger to return focus to: remember the opener ourselves.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener.current?.isConnected) opener.current.focus();
          }}
          // Anchored near the top and ending at least 7rem above the bottom,
          // where toasts appear (BackOfficeToaster): an error toast after a
          // failed save never covers the dialog's buttons.
          className="fixed left-1/2 top-4 z-50 max-h-[calc(100dvh-8rem)] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl focus:outline-none sm:top-16 sm:max-h-[calc(100dvh-11rem)]">
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-slate-600">{description}</Dialog.Description>
          <div className="mt-4">{children}</div>
          <Dialog.Close className="absolute right-3 top-3 rounded-md p-1 text-slate-600 hover:bg-slate-100" aria-label={C.close}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The cancel/save row of a form dialog. */
export function FormActions({ submitting, onCancel }: { submitting: boolean; onCancel: () => void }) {
  return (
    <div className="mt-6 flex justify-end gap-3">
      <button type="button" className={secondaryButton} onClick={onCancel}>
        {C.cancel}
      </button>
      <button type="submit" className={primaryButton} disabled={submitting}>
        {submitting ? C.saving : C.save}
      </button>
    </div>
  );
}

/**
 * A delete button that first asks in an alertdialog (every
 * delete asks first). The action runs only on confirmation.
 */
export function ConfirmButton({
  label,
  accessibleLabel,
  title,
  text,
  confirmLabel = C.confirmDelete,
  onConfirm,
  className = dangerButton,
}: {
  label: string;
  accessibleLabel?: string;
  title: string;
  text: string;
  confirmLabel?: string;
  onConfirm: () => Promise<void> | void;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger className={className} aria-label={accessibleLabel}>
        {label}
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl focus:outline-none">
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm text-slate-700">{text}</AlertDialog.Description>
          <div className="mt-6 flex justify-end gap-3">
            <AlertDialog.Cancel className={secondaryButton}>{C.cancel}</AlertDialog.Cancel>
            <button
              type="button"
              disabled={busy}
              className="inline-flex items-center justify-center rounded-md bg-red-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60"
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                } finally {
                  setBusy(false);
                  setOpen(false);
                }
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

export { Field, TypeOptions } from './field';

/** Loads a list once and on `reload()`; a failure shows the page's load-error toast. */
export function useList<T>(load: () => Promise<T[]>, onError: () => void) {
  const [items, setItems] = useState<T[] | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let live = true;
    load()
      .then((rows) => live && setItems(rows))
      .catch(() => {
        if (!live) return;
        setItems((prev) => prev ?? []);
        onError();
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [version]);
  return { items, setItems, reload: () => setVersion((v) => v + 1) };
}

/**
 * Saves a dialog's form: runs the create or update call, toasts the outcome,
 * and on failure puts the server's field errors (translation keys) on the
 * form's fields, mapping API field names where the form names them apart.
 * True when saved.
 */
export async function saveForm(
  save: () => Promise<unknown>,
  {
    success,
    onDone,
    setFieldError,
    fieldOf = (field) => field,
    ownTypes,
    explain,
  }: {
    success: string;
    onDone: () => void;
    setFieldError: (field: string, message: string | undefined) => void;
    fieldOf?: (apiField: string) => string;
    /** The page's own wording of a problem type (failureText). */
    ownTypes?: Record<string, string>;
    /** The page's own wording of a refusal from the problem's members (a window's overlap, named); undefined: failureText. */
    explain?: (error: unknown) => string | undefined;
  },
): Promise<boolean> {
  try {
    await save();
    toast.success(success);
    onDone();
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.fieldErrors) {
      for (const [field, keys] of Object.entries(error.fieldErrors)) setFieldError(fieldOf(field), keys[0]);
    }
    toast.error(C.saveError, { description: explain?.(error) ?? failureText(error, ownTypes) });
    return false;
  }
}

/**
 * The create/edit dialog of a list page: open while `editing` holds an
 * entity or 'new'; a saved form closes it and reloads the list.
 */
export function EditDialog<T>({
  editing,
  setEditing,
  onSaved,
  labels: text,
  children,
}: {
  editing: T | 'new' | null;
  setEditing: (value: T | 'new' | null) => void;
  onSaved: () => void;
  labels: { createTitle: string; editTitle: string; dialogDescription: string };
  children: (entity: T | null, done: () => void, cancel: () => void) => ReactNode;
}) {
  const close = () => setEditing(null);
  return (
    <FormDialog
      open={editing !== null}
      onOpenChange={(open) => !open && close()}
      title={editing === 'new' ? text.createTitle : text.editTitle}
      description={text.dialogDescription}
    >
      {editing !== null &&
        children(
          editing === 'new' ? null : editing,
          () => {
            close();
            onSaved();
          },
          close,
        )}
    </FormDialog>
  );
}

/**
 * A list page's table: the spinner while loading, a note when there is
 * nothing (or nothing matches the filters), else the table with a caption
 * for screen readers and one header cell per column; the rows are children
 * (`<tr>` of `<td>`, or a `<th scope="row">` naming the row).
 *
 * Below 640 px the rows become stacked cards (the `.list-table` rules in
 * global.css), so a row's actions are reachable without sideways
 * scrolling: each cell is labelled with its column's heading (`data-label`,
 * added here, so every page's table gets it), and the explicit roles keep
 * the table a table for screen readers while its parts are laid out as blocks.
 */
export function ListTable({
  loaded,
  total,
  shown,
  text,
  columns,
  children,
}: {
  loaded: boolean;
  total: number;
  shown: number;
  text: { empty: string; noMatch: string; caption: string };
  columns: string[];
  children: ReactNode;
}) {
  if (!loaded) return <Loading />;
  if (shown === 0) {
    return <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center">{total === 0 ? text.empty : text.noMatch}</p>;
  }
  return (
    <div className="list-table overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
      <table role="table" className="w-full text-left text-sm">
        <caption className="sr-only">{text.caption}</caption>
        <thead role="rowgroup" className="bg-slate-50">
          <tr role="row">
            {columns.map((column) => (
              <th key={column} role="columnheader" scope="col" className="px-3 py-2">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="divide-y divide-slate-100">
          {labelCells(children, columns)}
        </tbody>
      </table>
    </div>
  );
}

type CellProps = { children?: ReactNode; scope?: string };

/** Each row's cells get their column's heading as `data-label` (shown on the cards) and an explicit role. */
function labelCells(rows: ReactNode, columns: string[]): ReactNode {
  return Children.map(rows, (row) => {
    if (!isValidElement<CellProps>(row) || row.type !== 'tr') return row;
    let column = 0;
    const cells = Children.map(row.props.children, (cell) => {
      if (!isValidElement<CellProps>(cell) || (cell.type !== 'td' && cell.type !== 'th')) return cell;
      const label = columns[column++];
      // A row's header cell is the card's title and carries no label.
      if (cell.type === 'th') return cloneElement(cell as ReactElement<CellProps & { role: string }>, { role: 'rowheader' });
      return cloneElement(cell as ReactElement<CellProps & { role: string; 'data-label'?: string }>, { role: 'cell', 'data-label': label });
    });
    return cloneElement(row as ReactElement<CellProps & { role: string }>, { role: 'row' }, cells);
  });
}

/** A row's "Bearbeiten" and "Löschen" (with confirmation), both named after the row for screen readers. */
export function RowActions({
  name,
  text,
  onEdit,
  onDelete,
}: {
  name: string;
  text: {
    editNamed: (name: string) => string;
    deleteNamed: (name: string) => string;
    deleteTitle: string;
    deleteText: (name: string) => string;
    /** The confirming button's label when it should not read just "Löschen". */
    confirmDelete?: string;
  };
  onEdit: () => void;
  onDelete: () => void | Promise<void>;
}) {
  return (
    <>
      <button type="button" className={secondaryButton} aria-label={text.editNamed(name)} onClick={onEdit}>
        {labels.common.edit}
      </button>
      <ConfirmButton
        label={labels.common.delete}
        accessibleLabel={text.deleteNamed(name)}
        title={text.deleteTitle}
        text={text.deleteText(name)}
        confirmLabel={text.confirmDelete}
        onConfirm={onDelete}
      />
    </>
  );
}
