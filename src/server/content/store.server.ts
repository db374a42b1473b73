/**
 * The content store factory: where the content editor reads and writes
 * the site's texts: the working copy on this machine (APP_ENV=development)
 * or the Git host's REST API (production, and anywhere GIT_REPOSITORY is
 * set). The port both implement is port.server.ts. Each store is loaded
 * only when a request needs it: the function stays small for its other
 * answers.
 */
import { isProductionEnv, notConfigured, variables } from '../env.server';
import type { ContentStore } from './port.server';

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
