/**
 * Where the content editor reads and writes the site's texts: the working
 * copy on this machine (APP_ENV=development) or the Git host's REST API
 * (production, and anywhere GIT_REPOSITORY is set). Both name a version of
 * a file by its Git blob SHA-1, so "the version the editor started from"
 * means the same in both, and both refuse to write over a version other
 * than the one named. Each store is loaded only when a request needs it:
 * the function stays small for its other answers.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors';
import { isProductionEnv, notConfigured, variables } from '../env.server';

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

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * The store this environment uses. GIT_REPOSITORY, GIT_BRANCH and GIT_TOKEN
 * together select the Git host; production without them is 503
 * not-configured (one log line names them). Locally without them the
 * working copy under CONTENT_ROOT (default: the current directory).
 */
export async function contentStore(source: Readonly<Record<string, string | undefined>> = variables()): Promise<ContentStore> {
  const repository = source.GIT_REPOSITORY || undefined;
  const branch = source.GIT_BRANCH || undefined;
  const token = source.GIT_TOKEN || undefined;
  const production = isProductionEnv(source);
  if (repository || branch || token || production) {
    const missing = [
      ...(!repository || !REPOSITORY.test(repository) ? ['GIT_REPOSITORY'] : []),
      ...(!branch ? ['GIT_BRANCH'] : []),
      ...(!token ? ['GIT_TOKEN'] : []),
    ];
    let apiUrl: URL | null = null;
    try {
      apiUrl = new URL(source.GIT_API_URL || 'https://api.github.com');
    } catch {
      missing.push('GIT_API_URL');
    }
    // The token travels to that host: never in clear text in production.
    if (apiUrl && production && apiUrl.protocol !== 'https:') missing.push('GIT_API_URL');
    if (missing.length > 0) throw notConfigured(missing);
    const { githubStore } = await import('./github-store.server');
    return githubStore({ apiUrl: apiUrl!.href.replace(/\/$/, ''), repository: repository!, branch: branch!, token: token! });
  }
  const { localStore } = await import('./local-store.server');
  return localStore(source.CONTENT_ROOT || process.cwd());
}
