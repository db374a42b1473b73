/**
 * The editor's backend maps each page's editor-only folder to the
 * real files, remembers the version of every file it read and names it
 * when saving, and takes the new versions from the answer.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import PraxisBackend, { ContentApiError, connectEditor } from './praxis-backend';
import { realPath, virtualFolder, virtualPath } from './virtual-paths';

type Sent = { action: string; params: any };

function server(answer: (sent: Sent) => { status?: number; body: unknown }) {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as Sent;
    sent.push(body);
    const { status = 200, body: out } = answer(body);
    return new Response(JSON.stringify(out), { status, headers: { 'content-type': 'application/json' } });
  });
  return sent;
}

const entry = (path: string, id: string) => ({ data: `---\ntitle: ${path}\n---\n`, file: { path, id } });

describe('the content editor backend', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names pages by numbered editor-only folders and maps them to src/content', () => {
    expect(virtualFolder('laboruntersuchungen')).toBe('cms/seite-2');
    expect(virtualPath('laboruntersuchungen', 'en')).toBe('cms/seite-2/en/laboruntersuchungen.md');
    expect(realPath('cms/seite-2/en/laboruntersuchungen.md')).toBe('src/content/en/laboruntersuchungen.md');
    // A page in another page's folder, or anything else, is left as it is (and the server refuses it).
    expect(realPath('cms/seite-1/de/team.md')).toBe('cms/seite-1/de/team.md');
    expect(realPath('src/content/practice.json')).toBe('src/content/practice.json');
  });

  it('lists a page in both languages and saves with the versions it read, then with the new ones', async () => {
    const sent = server(({ action, params }) => {
      if (action === 'entriesByFiles') return { body: params.files.map((f: { path: string }) => entry(f.path, f.path.includes('/de/') ? 'a'.repeat(40) : 'b'.repeat(40))) };
      return { body: { message: 'entry persisted', files: [{ path: 'src/content/de/home.md', id: 'c'.repeat(40) }, { path: 'src/content/en/home.md', id: 'b'.repeat(40) }] } };
    });
    const backend = new PraxisBackend();
    const listed = await backend.entriesByFolder('cms/seite-1');
    expect(sent[0]!.params.files.map((f: { path: string }) => f.path)).toEqual(['src/content/de/home.md', 'src/content/en/home.md']);
    expect(listed.map((e) => e.file.path)).toEqual(['cms/seite-1/de/home.md', 'cms/seite-1/en/home.md']);

    const save = () => backend.persistEntry({ dataFiles: [{ path: 'cms/seite-1/de/home.md', raw: 'x' }, { path: 'cms/seite-1/en/home.md', raw: 'y' }], assets: [] });
    await save();
    expect(sent[1]!.params.dataFiles.map((f: { path: string; sha: string }) => [f.path, f.sha])).toEqual([
      ['src/content/de/home.md', 'a'.repeat(40)],
      ['src/content/en/home.md', 'b'.repeat(40)],
    ]);
    await save();
    expect(sent[2]!.params.dataFiles[0].sha).toBe('c'.repeat(40));
  });

  it("passes on the server's German explanation and sends a signed-out editor to sign in", async () => {
    const signedOut = vi.fn();
    connectEditor({ email: 'anna@example.org' }, signedOut);
    server(() => ({ status: 409, body: { type: 'conflict', detail: 'Die Datei wurde inzwischen von jemand anderem gespeichert.' } }));
    const backend = new PraxisBackend();
    await expect(backend.getEntry('cms/seite-1/de/home.md')).rejects.toThrow(new ContentApiError(409, 'Die Datei wurde inzwischen von jemand anderem gespeichert.'));
    server(() => ({ status: 401, body: { type: 'unauthenticated' } }));
    await expect(backend.getEntry('cms/seite-1/de/home.md')).rejects.toThrow(ContentApiError);
    expect(signedOut).toHaveBeenCalledOnce();
    expect(await backend.authenticate()).toMatchObject({ name: 'anna@example.org', email: 'anna@example.org' });
  });
});
