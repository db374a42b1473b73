import { describe, expect, it, vi } from 'vitest';
import { call } from '../../../tests/helpers/http';

const getDb = vi.hoisted(() => vi.fn(async () => ({ marker: 'the database' })));
vi.mock('../database.server', () => ({ getDb }));
const { publicAction, publicRoute } = await import('./route.server');

describe('a public route and the database', () => {
  it('opens it before the action, after the input is read', async () => {
    const seen: unknown[] = [];
    const handler = publicRoute({ GET: publicAction({ run: ({ db }) => (seen.push(db), Response.json({})) }) });
    expect((await call(handler, '/api/x')).status).toBe(200);
    expect(getDb).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([{ marker: 'the database' }]);
  });

  it('leaves it to an action that opens it itself: never opened for it, and its `db` refuses any use', async () => {
    getDb.mockClear();
    let refused: unknown;
    const handler = publicRoute({
      POST: publicAction({
        origin: 'checked-by-action',
        database: 'opened-by-action',
        run: ({ db }) => {
          try {
            void db.select;
          } catch (error) {
            refused = error;
          }
          return new Response('refused', { status: 400 });
        },
      }),
    });
    expect((await call(handler, '/termin/absagen', { method: 'POST', body: 'x=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(400);
    expect(getDb).not.toHaveBeenCalled();
    expect((refused as Error).message).toBe('this action opens the database itself (getDb)');
  });
});
