/**
 * Astro 5.18.2's content store writer raced with itself
 * (withastro/astro#15672): a write asked for while an earlier one was still
 * on disk was dropped, and the earlier write then ran again with its own,
 * older data. When loading the pages outlasted the 500 ms save debounce (a
 * busy machine, a store cleared by a changed config), the build read a
 * store that was missing or held only part of the pages ("src/content/de/
 * datenschutz.md is missing"). patches/astro+5.18.2.patch serialises the
 * writes; this replays the failing sequence on the real store with a slow
 * disk and fails without the patch.
 */
import { promises as fs } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';

interface Store {
  set(collection: string, key: string, value: unknown): void;
  get(collection: string, key: string): unknown;
  waitUntilSaveComplete(): Promise<void>;
}
interface StoreClass {
  fromFile(file: URL): Promise<Store>;
}

const realWriteFile = fs.writeFile;
const realRename = fs.rename;

async function storeClass(): Promise<StoreClass> {
  const url = pathToFileURL(path.resolve('node_modules/astro/dist/content/mutable-data-store.js')).href;
  return ((await import(/* @vite-ignore */ url)) as { MutableDataStore: StoreClass }).MutableDataStore;
}

describe("Astro's content store writer", () => {
  let dir: string;
  afterEach(async () => {
    fs.writeFile = realWriteFile;
    fs.rename = realRename;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has the whole store on disk once saving is complete, though a write was still running when more pages were loaded', async () => {
    const MutableDataStore = await storeClass();
    dir = await mkdtemp(path.join(os.tmpdir(), 'praxis-store-'));
    const file = pathToFileURL(path.join(dir, 'data-store.json'));
    // A busy machine: every write takes 400 ms. The test follows the writes
    // (started, and finished by their rename into place) instead of the clock.
    let written = 0;
    let firstWriteStarted!: () => void;
    const writing = new Promise<void>((resolve) => (firstWriteStarted = resolve));
    fs.writeFile = (async (...args: Parameters<typeof realWriteFile>) => {
      firstWriteStarted();
      await new Promise((resolve) => setTimeout(resolve, 400));
      return realWriteFile(...args);
    }) as typeof realWriteFile;
    fs.rename = (async (...args: Parameters<typeof realRename>) => {
      await realRename(...args);
      written++;
    }) as typeof realRename;

    const store = await MutableDataStore.fromFile(file);
    store.set('pages', 'de/home', { title: 'Startseite' });
    // Loading outlasts the save debounce: the first, partial write starts ...
    await writing;
    // ... and the remaining pages arrive while it is still on disk.
    store.set('pages', 'de/impressum', { title: 'Impressum' });
    store.set('pages', 'de/datenschutz', { title: 'Datenschutzerklärung' });
    await store.waitUntilSaveComplete();

    // What the build reads right after loading: every page.
    const read = async () => (await MutableDataStore.fromFile(file)).get('pages', 'de/datenschutz');
    expect(await read()).toEqual({ title: 'Datenschutzerklärung' });
    // And it stays so: once both writes are in place (the unpatched writer's
    // second is the first one again, with its older data), every page is there.
    await vi.waitFor(() => expect(written).toBe(2), { timeout: 10_000, interval: 20 });
    expect(await read()).toEqual({ title: 'Datenschutzerklärung' });
  }, 20_000);
});
