/**
 * The content store of a developer's machine (APP_ENV=development): the
 * files of the working copy under `root`. Saves run one at a time in this
 * process (the local server runs every function in one process), so the
 * version check and the write cannot interleave; each file is replaced by
 * a rename, so a reader never sees half a file.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gitBlobSha, staleVersion, type ContentStore, type FileChange, type StoredFile } from './port.server';

/** Versions this process has read or written, by SHA: what an editor's save may be based on. */
const known = new Map<string, string>();
const KNOWN_MAX = 200;

function remember(sha: string, content: string) {
  known.delete(sha);
  known.set(sha, content);
  if (known.size > KNOWN_MAX) known.delete(known.keys().next().value!);
}

let queue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}

export function localStore(root: string): ContentStore {
  const absolute = (file: string) => path.join(path.resolve(root), file);
  async function read(file: string): Promise<StoredFile | null> {
    try {
      const content = await readFile(absolute(file), 'utf8');
      const sha = gitBlobSha(content);
      remember(sha, content);
      return { path: file, content, sha };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
  return {
    kind: 'local',
    read,
    async readVersion(_file, sha) {
      return known.get(sha) ?? null;
    },
    write(changes: FileChange[]) {
      return oneAtATime(async () => {
        for (const change of changes) {
          const current = await read(change.path);
          if (current?.sha !== change.sha) throw staleVersion(change.path);
        }
        const written: Array<{ path: string; sha: string }> = [];
        for (const change of changes) {
          const target = absolute(change.path);
          const temporary = `${target}.${process.pid}.saving`;
          await writeFile(temporary, change.content, 'utf8');
          await rename(temporary, target);
          const sha = gitBlobSha(change.content);
          remember(sha, change.content);
          written.push({ path: change.path, sha });
        }
        return written;
      });
    },
  };
}
