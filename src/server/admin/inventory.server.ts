/** The consumables inventory, ordered by name. */
import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { inventoryItems, type InventoryItemRow } from '../../../db/schema';
import type { InventoryItemInput } from '../../lib/admin-schemas';
import { notFound } from './shared.server';

export interface InventoryItemDto {
  id: string;
  name: string;
  article_number: string | null;
  supplier: string;
  expiry_date: string | null;
  current_stock: number;
  minimum_stock: number;
  is_ordered: boolean;
  last_inventory_check: string | null;
  last_usage_date: string | null;
  notes: string | null;
  updated_at: string;
}

const toDto = (row: InventoryItemRow): InventoryItemDto => ({
  id: row.id,
  name: row.name,
  article_number: row.articleNumber,
  supplier: row.supplier,
  expiry_date: row.expiryDate,
  current_stock: row.currentStock,
  minimum_stock: row.minimumStock,
  is_ordered: row.isOrdered,
  last_inventory_check: row.lastInventoryCheck,
  last_usage_date: row.lastUsageDate,
  notes: row.notes,
  updated_at: row.updatedAt.toISOString(),
});

const columns = (input: InventoryItemInput) => ({
  name: input.name,
  articleNumber: input.article_number,
  supplier: input.supplier,
  expiryDate: input.expiry_date,
  currentStock: input.current_stock,
  minimumStock: input.minimum_stock,
  isOrdered: input.is_ordered,
  lastInventoryCheck: input.last_inventory_check,
  lastUsageDate: input.last_usage_date,
  notes: input.notes,
});

export async function listInventory(db: Database): Promise<InventoryItemDto[]> {
  const rows = await db.select().from(inventoryItems).orderBy(asc(inventoryItems.name), asc(inventoryItems.id));
  return rows.map(toDto);
}

export async function createInventoryItem(db: Database, input: InventoryItemInput): Promise<InventoryItemDto> {
  const [row] = await db.insert(inventoryItems).values(columns(input)).returning();
  return toDto(row!);
}

export async function updateInventoryItem(db: Database, id: string, input: InventoryItemInput): Promise<InventoryItemDto> {
  const [row] = await db
    .update(inventoryItems)
    .set({ ...columns(input), updatedAt: sql`now()` })
    .where(eq(inventoryItems.id, id))
    .returning();
  if (!row) throw notFound('inventory item');
  return toDto(row);
}

export async function setInventoryOrdered(db: Database, id: string, isOrdered: boolean): Promise<InventoryItemDto> {
  const [row] = await db
    .update(inventoryItems)
    .set({ isOrdered, updatedAt: sql`now()` })
    .where(eq(inventoryItems.id, id))
    .returning();
  if (!row) throw notFound('inventory item');
  return toDto(row);
}

/** Deletes the item and returns it as it was (for the audit label). */
export async function deleteInventoryItem(db: Database, id: string): Promise<InventoryItemDto> {
  const [row] = await db.delete(inventoryItems).where(eq(inventoryItems.id, id)).returning();
  if (!row) throw notFound('inventory item');
  return toDto(row);
}
