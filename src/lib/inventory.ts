/** The inventory rules, pure so the table, its filters and tests agree. */
import { addDaysToDate } from './berlin-time';

export interface StockLevels {
  current_stock: number;
  minimum_stock: number;
  is_ordered: boolean;
  expiry_date: string | null;
}

export const EXPIRING_SOON_DAYS = 30;

/** current_stock <= minimum_stock. */
export function isLowStock(item: StockLevels): boolean {
  return item.current_stock <= item.minimum_stock;
}

/** Low stock that nobody has ordered yet. */
export function needsReorder(item: StockLevels): boolean {
  return isLowStock(item) && !item.is_ordered;
}

/** Expiry within 0..30 days from Berlin's today (already expired items are not "soon"). */
export function isExpiringSoon(item: StockLevels, today: string): boolean {
  if (!item.expiry_date) return false;
  return item.expiry_date >= today && item.expiry_date <= addDaysToDate(today, EXPIRING_SOON_DAYS);
}
