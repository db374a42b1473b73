/**
 * The inventory table: 'low stock' and 'expires soon' filters with counts,
 * the reorder warning, highlighted rows, an is_ordered checkbox that saves
 * at once, create/edit/delete.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type * as z from '../../../lib/zod';
import { inventoryItemSchema } from '../../../lib/admin-schemas';
import { berlinToday } from '../../../lib/berlin-time';
import { formatShortDate } from '../../../lib/dates';
import { isExpiringSoon, needsReorder } from '../../../lib/inventory';
import { adminApi, failureText, type InventoryItemDto } from '../shared/admin-api';
import { labels } from '../shared/labels';
import { EditDialog, Field, FormActions, inputClass, ListTable, PageHeader, primaryButton, RowActions, saveForm, useList } from '../shared/ui';
import { filterInventory, inventorySummary, type InventoryFilter } from '../shared/views';

const L = labels.inventory;
const C = labels.common;
type FormIn = z.input<typeof inventoryItemSchema>;
type FormOut = z.output<typeof inventoryItemSchema>;

const FILTERS: InventoryFilter[] = ['all', 'low-stock', 'expiring'];
const filterFromUrl = (): InventoryFilter => {
  const value = new URLSearchParams(window.location.search).get('filter');
  return FILTERS.find((f) => f === value) ?? 'all';
};

export function InventoryPage() {
  const { items, setItems, reload } = useList(adminApi.inventory.list, () => toast.error(C.error, { description: L.loadError }));
  // The dashboard links here with ?filter=low-stock or ?filter=expiring.
  const [filter, setFilter] = useState<InventoryFilter>(filterFromUrl);
  const [editing, setEditing] = useState<InventoryItemDto | 'new' | null>(null);
  const today = berlinToday();
  const summary = inventorySummary(items ?? [], today);
  const shown = filterInventory(items ?? [], filter, today);

  async function toggleOrdered(item: InventoryItemDto, isOrdered: boolean) {
    setItems((prev) => prev?.map((i) => (i.id === item.id ? { ...i, is_ordered: isOrdered } : i)) ?? null);
    try {
      const saved = await adminApi.inventory.setOrdered(item.id, isOrdered);
      setItems((prev) => prev?.map((i) => (i.id === saved.id ? saved : i)) ?? null);
      toast.success(L.updated);
    } catch (error) {
      setItems((prev) => prev?.map((i) => (i.id === item.id ? { ...i, is_ordered: item.is_ordered } : i)) ?? null);
      toast.error(C.saveError, { description: failureText(error) });
    }
  }

  async function remove(item: InventoryItemDto) {
    try {
      await adminApi.inventory.remove(item.id);
      toast.success(L.deleted);
      reload();
    } catch (error) {
      toast.error(C.deleteError, { description: failureText(error) });
    }
  }

  const filters: Array<[InventoryFilter, string, number | null]> = [
    ['all', L.filterAll, items?.length ?? null],
    ['low-stock', L.filterLowStock, summary.lowStock],
    ['expiring', L.filterExpiring, summary.expiring],
  ];

  return (
    <>
      <PageHeader
        title={labels.nav.inventory}
        intro={L.intro}
        action={
          <button type="button" className={primaryButton} onClick={() => setEditing('new')}>
            {L.add}
          </button>
        }
      />
      {summary.reorder > 0 && (
        <p role="status" className="mb-4 rounded-md border border-red-300 bg-red-50 px-4 py-3 font-semibold text-red-800">
          {L.reorderWarning(summary.reorder)}
        </p>
      )}
      <div role="group" aria-label={L.filters} className="mb-4 flex flex-wrap gap-2">
        {filters.map(([value, label, count]) => (
          <button
            key={value}
            type="button"
            aria-pressed={filter === value}
            onClick={() => setFilter(value)}
            className={`rounded-full border px-3 py-1 text-sm font-medium ${
              filter === value ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-50'
            }`}
          >
            {label} ({count ?? '–'})
          </button>
        ))}
      </div>
      <ListTable loaded={items !== null} total={items?.length ?? 0} shown={shown.length} text={L} columns={[L.name, L.supplier, L.stock, L.expiryDate, L.ordered, L.lastCheck, L.actions]}>
        {shown.map((item) => {
          const reorder = needsReorder(item);
          const expiring = isExpiringSoon(item, today);
          return (
            <tr key={item.id} data-needs-reorder={reorder || undefined} className={reorder ? 'bg-red-50' : undefined}>
              <th scope="row" className="px-3 py-2 font-medium">
                {item.name}
                {item.article_number && <span className="block text-xs font-normal text-slate-600">{item.article_number}</span>}
                {reorder && <span className="mt-1 inline-block rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">{L.needsReorder}</span>}
              </th>
              <td className="px-3 py-2">{item.supplier}</td>
              <td className="px-3 py-2">
                {item.current_stock} / {item.minimum_stock}
              </td>
              <td className="px-3 py-2">
                {item.expiry_date ? formatShortDate(item.expiry_date) : '–'}
                {expiring && <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">{L.expiresSoon}</span>}
              </td>
              <td className="px-3 py-2">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-brand-700"
                  checked={item.is_ordered}
                  aria-label={L.orderedNamed(item.name)}
                  onChange={(e) => void toggleOrdered(item, e.target.checked)}
                />
              </td>
              <td className="px-3 py-2">{item.last_inventory_check ? formatShortDate(item.last_inventory_check) : '–'}</td>
              <td className="px-3 py-2">
                <div className="flex gap-2">
                  <RowActions name={item.name} text={L} onEdit={() => setEditing(item)} onDelete={() => remove(item)} />
                </div>
              </td>
            </tr>
          );
        })}
      </ListTable>
      <EditDialog editing={editing} setEditing={setEditing} onSaved={reload} labels={L}>
        {(entity, done, cancel) => (
          <ItemForm
            item={entity}
            onDone={done}
            onCancel={cancel}
          />
        )}
      </EditDialog>
    </>
  );
}

function ItemForm({ item, onDone, onCancel }: { item: InventoryItemDto | null; onDone: () => void; onCancel: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(inventoryItemSchema),
    defaultValues: {
      name: item?.name ?? '',
      article_number: item?.article_number ?? '',
      supplier: item?.supplier ?? '',
      expiry_date: item?.expiry_date ?? '',
      current_stock: String(item?.current_stock ?? 0),
      minimum_stock: String(item?.minimum_stock ?? 0),
      is_ordered: item?.is_ordered ?? false,
      last_inventory_check: item?.last_inventory_check ?? '',
      last_usage_date: item?.last_usage_date ?? '',
      notes: item?.notes ?? '',
    },
  });

  const onSubmit = (values: FormOut) =>
    saveForm(() => (item ? adminApi.inventory.update(item.id, values) : adminApi.inventory.create(values)), {
      success: item ? L.updated : L.created,
      onDone,
      setFieldError: (field, message) => setError(field as keyof FormIn, { message }),
    });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="space-y-4">
      <Field id="item-name" label={L.name} required error={errors.name?.message}>
        {(a) => <input {...a} className={inputClass} {...register('name')} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="item-article" label={L.articleNumber} error={errors.article_number?.message}>
          {(a) => <input {...a} className={inputClass} {...register('article_number')} />}
        </Field>
        <Field id="item-supplier" label={L.supplier} required error={errors.supplier?.message}>
          {(a) => <input {...a} className={inputClass} {...register('supplier')} />}
        </Field>
        <Field id="item-current" label={L.currentStock} required error={errors.current_stock?.message}>
          {(a) => <input {...a} type="number" min={0} step={1} className={inputClass} {...register('current_stock')} />}
        </Field>
        <Field id="item-minimum" label={L.minimumStock} required error={errors.minimum_stock?.message}>
          {(a) => <input {...a} type="number" min={0} step={1} className={inputClass} {...register('minimum_stock')} />}
        </Field>
        <Field id="item-expiry" label={L.expiryDate} error={errors.expiry_date?.message}>
          {(a) => <input {...a} type="date" className={inputClass} {...register('expiry_date')} />}
        </Field>
        <Field id="item-last-check" label={L.lastCheck} error={errors.last_inventory_check?.message}>
          {(a) => <input {...a} type="date" className={inputClass} {...register('last_inventory_check')} />}
        </Field>
        <Field id="item-last-usage" label={L.lastUsage} error={errors.last_usage_date?.message}>
          {(a) => <input {...a} type="date" className={inputClass} {...register('last_usage_date')} />}
        </Field>
      </div>
      <div className="flex items-center gap-2">
        <input id="item-ordered" type="checkbox" className="h-4 w-4 accent-brand-700" {...register('is_ordered')} />
        <label htmlFor="item-ordered" className="text-sm font-medium">
          {L.ordered}
        </label>
      </div>
      <Field id="item-notes" label={L.notes} error={errors.notes?.message}>
        {(a) => <textarea {...a} rows={3} className={inputClass} {...register('notes')} />}
      </Field>
      <FormActions submitting={isSubmitting} onCancel={onCancel} />
    </form>
  );
}
