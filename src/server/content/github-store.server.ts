/**
 * The content store of production: the repository on GitHub, through its
 * REST contents API (https://docs.github.com/en/rest/repos/contents) with a
 * token that may write contents of that one repository. A file is read with
 * its blob SHA and replaced with `PUT …/contents/<path>` naming the SHA it
 * replaces: GitHub refuses (409, or 422 for a SHA it does not accept) when
 * the branch holds another version, so a colleague's save is never
 * overwritten, even by a request that raced ours. Each PUT is one commit;
 * Netlify's continuous deployment builds and publishes it.
 */
import { AppError } from '../../lib/errors';
import { staleVersion, type ContentCommit, type ContentStore, type FileChange, type StoredFile } from './port.server';

export interface GitHubSettings {
  /** https://api.github.com, or a GitHub Enterprise API root */
  apiUrl: string;
  /** owner/name */
  repository: string;
  branch: string;
  token: string;
}

const TIMEOUT_MS = 10_000;

function hostFailed(status: number | string): AppError {
  // The status only: GitHub's messages can echo the request.
  console.error(`git host request failed: ${status}`);
  return new AppError('git-host-failed', 'Der Git-Dienst hat die Anfrage nicht angenommen. Bitte versuchen Sie es in einem Moment erneut.');
}

export function githubStore(settings: GitHubSettings): ContentStore {
  const base = `${settings.apiUrl}/repos/${settings.repository}`;
  const headers = {
    accept: 'application/vnd.github+json',
    authorization: `Bearer ${settings.token}`,
    'x-github-api-version': '2022-11-28',
    'user-agent': 'praxis-website-content-editor',
  };
  const contentsUrl = (file: string) => `${base}/contents/${file.split('/').map(encodeURIComponent).join('/')}`;

  async function call(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(url, { ...init, headers: { ...headers, ...init.headers }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw hostFailed((error as Error).name);
    }
  }

  async function read(file: string): Promise<StoredFile | null> {
    const res = await call(`${contentsUrl(file)}?ref=${encodeURIComponent(settings.branch)}`);
    if (res.status === 404) return null;
    if (!res.ok) throw hostFailed(res.status);
    const body = (await res.json()) as { type?: string; encoding?: string; content?: string; sha?: string };
    if (body.type !== 'file' || body.encoding !== 'base64' || typeof body.content !== 'string' || typeof body.sha !== 'string') {
      throw hostFailed('unexpected contents answer');
    }
    return { path: file, content: Buffer.from(body.content, 'base64').toString('utf8'), sha: body.sha };
  }

  return {
    kind: 'github',
    read,
    async latestContentCommit(): Promise<ContentCommit | null> {
      const res = await call(`${base}/commits?sha=${encodeURIComponent(settings.branch)}&path=src/content&per_page=1`);
      if (!res.ok) throw hostFailed(res.status);
      const [newest] = (await res.json()) as Array<{ sha?: string; html_url?: string; commit?: { committer?: { date?: string } } }>;
      if (!newest?.sha || !/^[0-9a-f]{40}$/.test(newest.sha)) return null;
      return { sha: newest.sha, url: newest.html_url ?? '', date: newest.commit?.committer?.date ?? new Date().toISOString() };
    },
    async readVersion(_file, sha) {
      if (!/^[0-9a-f]{40}$/.test(sha)) return null;
      const res = await call(`${base}/git/blobs/${sha}`);
      if (res.status === 404) return null;
      if (!res.ok) throw hostFailed(res.status);
      const body = (await res.json()) as { encoding?: string; content?: string };
      return body.encoding === 'base64' && typeof body.content === 'string' ? Buffer.from(body.content, 'base64').toString('utf8') : null;
    },
    async write(changes: FileChange[], message: string) {
      // Every version is checked before the first commit, so a stale save
      // writes nothing; GitHub checks each again at its own PUT.
      for (const change of changes) {
        const current = await read(change.path);
        if (current?.sha !== change.sha) throw staleVersion(change.path);
      }
      const written: Array<{ path: string; sha: string }> = [];
      for (const change of changes) {
        const res = await call(contentsUrl(change.path), {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            message,
            content: Buffer.from(change.content, 'utf8').toString('base64'),
            sha: change.sha,
            branch: settings.branch,
          }),
        });
        if (res.status === 409 || res.status === 422) throw staleVersion(change.path);
        if (!res.ok) throw hostFailed(res.status);
        const body = (await res.json()) as { content?: { sha?: string } };
        if (typeof body.content?.sha !== 'string') throw hostFailed('unexpected commit answer');
        written.push({ path: change.path, sha: body.content.sha });
      }
      return written;
    },
  };
}
