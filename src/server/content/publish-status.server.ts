/**
 * GET /api/admin/content/status: how far the last content save is on its
 * way to the public pages (docs/decisions/031-content-editor-second-pass.md).
 *
 * - Locally: the rebuild's own state (scripts/content-rebuild.ts): queued,
 *   running, live since the swap, failed naming the file and field.
 * - Production: the Git host's newest commit of src/content and, when
 *   NETLIFY_API_TOKEN and the site id (NETLIFY_SITE_ID, else Netlify's
 *   SITE_ID) are set, the state of Netlify's deploy of that commit. Without
 *   them the answer says the commit is saved and Netlify usually publishes
 *   within 1–2 minutes, with the commit's link. Netlify's failure reasons
 *   are shown shortened; a failed request to Netlify falls back to that
 *   answer and logs only its status.
 */
import { variables } from '../env.server';
import { localPublishStatus, type PublishState } from './published.server';
import type { ContentCommit, ContentStore } from './port.server';

export interface PublishStatusAnswer {
  state: PublishState;
  since: string;
  commit?: { sha: string; url: string };
  detail?: string;
}

export const SAVED_NETLIFY_PUBLISHES = 'gespeichert – Netlify veröffentlicht in der Regel in 1–2 Minuten';
const TIMEOUT_MS = 8000;

interface NetlifyDeploy {
  state?: string;
  commit_ref?: string | null;
  created_at?: string;
  updated_at?: string;
  published_at?: string | null;
  error_message?: string | null;
}

const QUEUED = new Set(['new', 'pending_review', 'accepted', 'enqueued']);
const FAILED = new Set(['error', 'rejected', 'failed']);

const shorten = (text: string) => (text.length > 300 ? `${text.slice(0, 299)}…` : text);

function fromDeploy(deploy: NetlifyDeploy, commit: ContentCommit): PublishStatusAnswer {
  const base = { commit: { sha: commit.sha, url: commit.url } };
  const state = deploy.state ?? '';
  if (state === 'ready') return { ...base, state: 'live', since: deploy.published_at ?? deploy.updated_at ?? commit.date };
  if (FAILED.has(state)) {
    return { ...base, state: 'failed', since: deploy.updated_at ?? commit.date, detail: shorten(deploy.error_message?.trim() || 'Netlify hat die Seiten nicht gebaut') };
  }
  if (QUEUED.has(state)) return { ...base, state: 'queued', since: deploy.created_at ?? commit.date };
  return { ...base, state: 'running', since: deploy.updated_at ?? deploy.created_at ?? commit.date };
}

async function netlifyDeploys(token: string, site: string, source: Readonly<Record<string, string | undefined>>): Promise<NetlifyDeploy[] | null> {
  const api = (source.NETLIFY_API_URL || 'https://api.netlify.com').replace(/\/$/, '');
  try {
    const res = await fetch(`${api}/api/v1/sites/${encodeURIComponent(site)}/deploys?per_page=20`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'user-agent': 'praxis-website-content-editor' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) {
      console.error(`netlify deploys request failed: ${res.status}`);
      return null;
    }
    const body = (await res.json()) as unknown;
    return Array.isArray(body) ? (body as NetlifyDeploy[]) : null;
  } catch (error) {
    console.error(`netlify deploys request failed: ${(error as Error).name}`);
    return null;
  }
}

export async function publishStatus(store: ContentStore, source: Readonly<Record<string, string | undefined>> = variables()): Promise<PublishStatusAnswer> {
  if (store.kind === 'local' || !store.latestContentCommit) return { ...localPublishStatus() };
  const commit = await store.latestContentCommit();
  if (!commit) return { state: 'idle', since: new Date().toISOString() };
  const saved: PublishStatusAnswer = { state: 'queued', since: commit.date, commit: { sha: commit.sha, url: commit.url }, detail: SAVED_NETLIFY_PUBLISHES };
  const token = source.NETLIFY_API_TOKEN;
  const site = source.NETLIFY_SITE_ID || source.SITE_ID;
  if (!token || !site) return saved;
  const deploys = await netlifyDeploys(token, site, source);
  if (!deploys) return saved;
  const deploy = deploys.find((d) => d.commit_ref === commit.sha);
  return deploy ? fromDeploy(deploy, commit) : { state: 'queued', since: commit.date, commit: saved.commit };
}
