/**
 * The content store's port: a file of the site's texts, a change to one,
 * a commit, and the store that reads and writes them. Both adapters
 * (local-store.server.ts, github-store.server.ts) name a version of a
 * file by its Git blob SHA-1, so "the version the editor started from"
 * means the same in both, and both refuse to write over a version other
 * than the one named (`staleVersion`). The factory that picks one is
 * store.server.ts.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors';

export interface StoredFile {
  path: string;
  content: string;
  /** The Git blob SHA-1 of the content. */
  sha: string;
}

export interface FileChange {
  path: string;
  content: string;
  /** The version this change replaces; any other current version refuses the write (409). */
  sha: string;
}

export interface ContentStore {
  readonly kind: 'local' | 'github';
  read(path: string): Promise<StoredFile | null>;
  /** The file's content at an earlier version, when the store still knows it. */
  readVersion(path: string, sha: string): Promise<string | null>;
  /** Writes the changes, each only over its named version, as one commit per save where the host allows; new SHAs. */
  write(changes: FileChange[], message: string): Promise<Array<{ path: string; sha: string }>>;
  /** The Git host's newest commit of the content (the store of production only). */
  latestContentCommit?(): Promise<ContentCommit | null>;
}

export interface ContentCommit {
  sha: string;
  /** The commit's page on the Git host. */
  url: string;
  /** ISO time of the commit. */
  date: string;
}

/** Git's blob id of a text: SHA-1 over "blob <bytes>\0<content>", as GitHub's contents API reports it. */
export function gitBlobSha(content: string | Buffer): string {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** 409: someone saved this file since the editor loaded it. */
export function staleVersion(path: string): AppError {
  return new AppError(
    'conflict',
    `Die Datei ${path} wurde inzwischen von jemand anderem gespeichert. Ihre Änderung wurde nicht übernommen, damit nichts überschrieben wird: bitte laden Sie die Seite neu und übernehmen Sie Ihre Änderung dann erneut.`,
  );
}
