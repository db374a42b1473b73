import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../lib/errors';
import * as z from '../lib/zod';
import { DEFAULT_RETRY_AFTER_SECONDS, errorResponse, parseInput, readJson, readJsonInput, route } from './http.server';

const post = (body: BodyInit, type = 'application/json', headers: Record<string, string> = {}) =>
  new Request('http://localhost/api/x', { method: 'POST', body, headers: { 'content-type': type, ...headers } });

async function status(p: Promise<unknown>) {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as AppError).status;
  }
}

describe('readJson', () => {
  it('parses a JSON body', async () => {
    await expect(readJson(post('{"a":1}'))).resolves.toEqual({ a: 1 });
    await expect(readJson(post('{"a":1}', 'application/problem+json'))).resolves.toEqual({ a: 1 });
  });

  it('refuses 400 naming each field for NUL, control, format and noncharacter code points in any string, keys too (docs/decisions/037)', async () => {
    const fieldsOf = async (p: Promise<unknown>) => {
      try {
        await p;
        return null;
      } catch (e) {
        return (e as AppError).fieldErrors;
      }
    };
    expect(await fieldsOf(readJson(post('{"email":"a\\u0000@b.de","pw":"x"}')))).toEqual({ email: ['errors.invalidCharacters'] });
    expect(await fieldsOf(readJson(post('{"a":[{"b":"\\u202e"}],"c":"\\ud800","d":"\\uffff"}')))).toEqual({
      'a.0.b': ['errors.invalidCharacters'],
      c: ['errors.invalidCharacters'],
      d: ['errors.invalidCharacters'],
    });
    expect(await fieldsOf(readJson(post('{"a\\u0001":1}')))).toEqual({ body: ['errors.invalidCharacters'] });
    await expect(readJson(post('{"text":"Zeile 1\\r\\nZeile 2\\tmit Tab"}'))).resolves.toEqual({ text: 'Zeile 1\r\nZeile 2\tmit Tab' });
  });

  it('with a schema, lets the field’s own rule speak first and names the other fields with the floor’s key', async () => {
    const schema = z.object({ name: z.string().check(z.refine((v) => !v.includes('\u202e'), 'form.errors.name')), note: z.string() });
    const errors = async (body: string) => {
      try {
        return await readJsonInput(post(body), schema);
      } catch (e) {
        return (e as AppError).fieldErrors;
      }
    };
    expect(await errors('{"name":"a\\u202e","note":"b\\u0000"}')).toEqual({ name: ['form.errors.name'], note: ['errors.invalidCharacters'] });
    expect(await errors('{"name":"a","note":"b\\u0000"}')).toEqual({ note: ['errors.invalidCharacters'] });
    expect(await errors('{"name":"a","note":"b","extra":"\\u0007"}')).toEqual({ extra: ['errors.invalidCharacters'] });
    expect(await errors('{"name":"a","note":"b"}')).toEqual({ name: 'a', note: 'b' });
  });

  it('answers 400 for malformed JSON, 415 for another media type', async () => {
    expect(await status(readJson(post('{"a":')))).toBe(400);
    expect(await status(readJson(post('a=1', 'application/x-www-form-urlencoded')))).toBe(415);
  });

  it('answers 413 above 64 KiB, whether declared or streamed', async () => {
    const big = JSON.stringify({ a: 'x'.repeat(70 * 1024) });
    expect(await status(readJson(post(big)))).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const chunked = new Request('http://localhost/', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
    expect(await status(readJson(chunked))).toBe(413);
  });
});

describe('parseInput', () => {
  const schema = z.object({ name: z.string().check(z.minLength(2, 'errors.nameTooShort')), age: z.number() });

  it('returns the parsed value', () => {
    expect(parseInput(schema, { name: 'Al', age: 3 })).toEqual({ name: 'Al', age: 3 });
  });

  it('throws 400 naming each field with its translation key', () => {
    try {
      parseInput(schema, { name: 'A' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(AppError);
      expect((e as AppError).status).toBe(400);
      expect((e as AppError).fieldErrors).toEqual({ name: ['errors.nameTooShort'], age: ['errors.invalid'] });
    }
  });
});

describe('route and errorResponse', () => {
  it('maps error codes to statuses in one place and renders problem details', async () => {
    const res = errorResponse(new AppError('slot-unavailable', 'This time is no longer available.'));
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ type: 'slot-unavailable', title: 'Conflict', status: 409, detail: 'This time is no longer available.' });
  });

  it('gives every 429 a Retry-After: the seconds the limit named, else a default; no other status gets one', async () => {
    const named = errorResponse(new AppError('rate-limited', 'Too many.', undefined, { retryAfterSeconds: 1234.2 }));
    expect(named.status).toBe(429);
    expect(named.headers.get('retry-after')).toBe('1235');
    expect(named.headers.get('content-type')).toMatch(/problem\+json/);
    const unnamed = errorResponse(new AppError('rate-limited', 'Too many.'));
    expect(unnamed.headers.get('retry-after')).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
    const handler = route({ POST: () => Promise.reject(new AppError('rate-limited')) });
    expect((await handler(post('{}'), { params: {}, ip: '1.1.1.1', waitUntil: () => {} })).headers.get('retry-after')).toBe(String(DEFAULT_RETRY_AFTER_SECONDS));
    expect(errorResponse(new AppError('slot-unavailable')).headers.get('retry-after')).toBeNull();
  });

  it('turns an unexpected error into a 500 without logging its message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const handler = route({
      GET: () => {
        throw new Error('Key (email)=(patient@example.org) already exists');
      },
    });
    const res = await handler(new Request('http://localhost/'), { params: {}, ip: '1.1.1.1', waitUntil: () => {} });
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('patient@example.org');
    const logged = error.mock.calls.flat().join(' ');
    expect(logged).toContain('unexpected Error');
    expect(logged).not.toContain('patient@example.org');
    error.mockRestore();
  });
});
