import { beforeAll, describe, expect, it } from 'vitest';
import { inventoryItems } from '../../db/schema';
import collection, { config as collectionConfig } from '../../netlify/functions/admin-inventory';
import item, { config as itemConfig } from '../../netlify/functions/admin-inventory-item';
import stats from '../../netlify/functions/admin-stats';
import { asAdmin, errorsOf } from '../helpers/admin-call';
import { createAdmin, type TestUser } from '../helpers/auth';
import { databaseKinds, useTestBed } from '../setup/test-bed';

const valid = {
  name: 'Spritzen 2 ml',
  article_number: 'SP-002',
  supplier: 'Medi-Bedarf GmbH',
  expiry_date: '2031-05-01',
  current_stock: 40,
  minimum_stock: 50,
  is_ordered: false,
  last_inventory_check: '2030-01-02',
  last_usage_date: '',
  notes: '',
};

describe.each(databaseKinds)('admin inventory on %s', (kind) => {
  const t = useTestBed({ database: kind });
  let admin: TestUser;
  const api = asAdmin(() => admin);
  const at = (id: string) => ({ path: `/api/admin/inventory/${id}`, params: { id } });

  beforeAll(async () => {
    admin = await createAdmin(t.db);
  });

  it('is routed as docs/architecture.md (HTTP API) says', () => {
    expect(collectionConfig.path).toBe('/api/admin/inventory');
    expect(itemConfig.path).toBe('/api/admin/inventory/:id');
  });

  it('creates (201, empty optional fields as null), lists by name, PUT replaces (200)', async () => {
    const created = await api(collection, '/api/admin/inventory', { method: 'POST', body: valid });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({ ...valid, id: expect.any(String), last_usage_date: null, notes: null, updated_at: expect.any(String) });
    await api(collection, '/api/admin/inventory', { method: 'POST', body: { name: 'Kanülen 23G', supplier: 'X', current_stock: 3, minimum_stock: 1 } });
    const list = await api(collection, '/api/admin/inventory');
    expect(list.json.map((i: any) => i.name)).toEqual(['Kanülen 23G', 'Spritzen 2 ml']);
    expect(list.json[0]).toMatchObject({ article_number: null, expiry_date: null, is_ordered: false, notes: null });

    const { path, params } = at(created.json.id);
    const put = await api(item, path, { method: 'PUT', params, body: { ...valid, current_stock: 60, notes: 'Schrank 3', article_number: ' ' } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id: created.json.id, current_stock: 60, notes: 'Schrank 3', article_number: null });
  });

  it('stocks that cannot be parsed count as 0; numeric text is read as a number', async () => {
    const res = await api(collection, '/api/admin/inventory', { method: 'POST', body: { ...valid, name: 'Tupfer', current_stock: 'viele', minimum_stock: '12' } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ current_stock: 0, minimum_stock: 12 });
  });

  it('PATCH sets only is_ordered and the low-stock count of the dashboard is unaffected by it', async () => {
    const [row] = await t.db.insert(inventoryItems).values({ name: 'EKG-Elektroden', supplier: 'Kardio', currentStock: 3, minimumStock: 10, notes: 'bleibt' }).returning();
    const lowBefore = (await api(stats, '/api/admin/stats')).json.lowStock;
    const { path, params } = at(row!.id);
    const res = await api(item, path, { method: 'PATCH', params, body: { is_ordered: true } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: row!.id, is_ordered: true, notes: 'bleibt', current_stock: 3 });
    expect((await api(stats, '/api/admin/stats')).json.lowStock).toBe(lowBefore);
    const back = await api(item, path, { method: 'PATCH', params, body: { is_ordered: false } });
    expect(back.json.is_ordered).toBe(false);
  });

  it.each([
    ['other fields', { is_ordered: true, current_stock: 1 }, 'body', 'admin.errors.onlyIsOrdered'],
    ['no flag', {}, 'is_ordered', 'admin.errors.invalid'],
    ['flag as text', { is_ordered: 'true' }, 'is_ordered', 'admin.errors.invalid'],
  ])('PATCH 400 with %s, nothing changed', async (_, body, field, key) => {
    const [row] = await t.db.select().from(inventoryItems).limit(1);
    const { path, params } = at(row!.id);
    expect(errorsOf(await api(item, path, { method: 'PATCH', params, body }))[field]).toEqual([key]);
    const [after] = await t.db.select().from(inventoryItems).where((await import('drizzle-orm')).eq(inventoryItems.id, row!.id));
    expect(after).toEqual(row);
  });

  it.each([
    ['name missing', { name: undefined }, 'name', 'admin.errors.nameRequired'],
    ['name blank', { name: '  ' }, 'name', 'admin.errors.nameRequired'],
    ['supplier missing', { supplier: '' }, 'supplier', 'admin.errors.supplierRequired'],
    ['current stock missing', { current_stock: undefined }, 'current_stock', 'admin.errors.currentStockRequired'],
    ['minimum stock missing', { minimum_stock: null }, 'minimum_stock', 'admin.errors.minimumStockRequired'],
    ['negative stock', { current_stock: -1 }, 'current_stock', 'admin.errors.stockInvalid'],
    ['fractional stock', { minimum_stock: 1.5 }, 'minimum_stock', 'admin.errors.stockInvalid'],
    ['expiry not a date', { expiry_date: '31.12.2030' }, 'expiry_date', 'admin.errors.dateInvalid'],
    ['last check not a real date', { last_inventory_check: '2030-02-30' }, 'last_inventory_check', 'admin.errors.dateInvalid'],
    ['last usage not a date', { last_usage_date: 'gestern' }, 'last_usage_date', 'admin.errors.dateInvalid'],
    ['notes too long', { notes: 'x'.repeat(2001) }, 'notes', 'admin.errors.tooLong'],
    ['is_ordered as text', { is_ordered: 'ja' }, 'is_ordered', 'admin.errors.invalid'],
  ])('400 and nothing saved: %s', async (_, change, field, key) => {
    const before = await t.db.select().from(inventoryItems);
    expect(errorsOf(await api(collection, '/api/admin/inventory', { method: 'POST', body: { ...valid, ...change } }))[field]).toEqual([key]);
    const { path, params } = at(before[0]!.id);
    expect(errorsOf(await api(item, path, { method: 'PUT', params, body: { ...valid, ...change } }))[field]).toEqual([key]);
    expect(await t.db.select().from(inventoryItems)).toEqual(before);
  });

  it('DELETE answers 204 and the item is gone', async () => {
    const [row] = await t.db.insert(inventoryItems).values({ name: 'Weg', supplier: 'S' }).returning();
    const { path, params } = at(row!.id);
    expect((await api(item, path, { method: 'DELETE', params })).status).toBe(204);
    expect((await api(collection, '/api/admin/inventory')).json.map((i: any) => i.id)).not.toContain(row!.id);
  });

  it('404 for an unknown or malformed id on PUT, PATCH and DELETE', async () => {
    for (const id of ['6b0c7a52-3c55-4f5e-9f7a-0d8d2f0b1a11', 'x']) {
      const { path, params } = at(id);
      expect((await api(item, path, { method: 'PUT', params, body: valid })).status).toBe(404);
      expect((await api(item, path, { method: 'PATCH', params, body: { is_ordered: true } })).status).toBe(404);
      expect((await api(item, path, { method: 'DELETE', params })).status).toBe(404);
    }
  });
});
