/**
 * A local stand-in for the part of GitHub's REST API the content editor
 * uses, with GitHub's own shapes (https://docs.github.com/en/rest/repos/contents,
 * https://docs.github.com/en/rest/git/blobs): GET a file's contents with its
 * blob SHA, GET a blob by SHA, PUT a file naming the SHA it replaces (409
 * when the branch holds another version, 422 when none is named). Every
 * request is recorded; a test can change files behind the editor's back.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: any;
}

export interface StandIn {
  url: string;
  requests: RecordedRequest[];
  commits: Array<{ path: string; message: string; branch: string }>;
  files: Map<string, string>;
  /** Answers the next PUT with this status (a commit that races ours, a GitHub failure). */
  failNextPut(status: number): void;
  close(): Promise<void>;
}

const blobSha = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
};

/** GitHub wraps base64 content at 60 characters. */
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64').replace(/(.{60})/g, '$1\n');

export async function startContentsStandIn(options: { repository: string; branch: string; token: string; files: Record<string, string> }): Promise<StandIn> {
  const files = new Map(Object.entries(options.files));
  const blobs = new Map([...files.values()].map((text) => [blobSha(text), text]));
  const requests: RecordedRequest[] = [];
  const commits: StandIn['commits'] = [];
  const commitDates: string[] = [];
  let nextPutStatus: number | null = null;
  const repoPrefix = `/repos/${options.repository}`;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const body = raw ? JSON.parse(raw) : undefined;
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, authorization: req.headers.authorization, body });
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify(payload));
    };
    if (req.headers.authorization !== `Bearer ${options.token}`) return send(401, { message: 'Bad credentials', status: '401' });
    if (!url.pathname.startsWith(repoPrefix)) return send(404, { message: 'Not Found', status: '404' });
    const rest = url.pathname.slice(repoPrefix.length);

    const blob = /^\/git\/blobs\/([0-9a-f]{40})$/.exec(rest);
    if (blob && req.method === 'GET') {
      const text = blobs.get(blob[1]!);
      if (text === undefined) return send(404, { message: 'Not Found', status: '404' });
      return send(200, { sha: blob[1], node_id: 'B_x', size: Buffer.byteLength(text), url: '', content: base64(text), encoding: 'base64' });
    }

    // GET /commits?sha=<branch>&path=<folder>&per_page=1: the newest commit (https://docs.github.com/en/rest/commits/commits).
    if (rest === '/commits' && req.method === 'GET') {
      if ((url.searchParams.get('sha') ?? options.branch) !== options.branch) return send(404, { message: 'Not Found', status: '404' });
      const folder = url.searchParams.get('path') ?? '';
      const list = commits
        .map((c, i) => ({ ...c, i }))
        .filter((c) => c.path.startsWith(folder))
        .reverse()
        .map((c) => {
          const sha = createHash('sha1').update(`${c.i + 1}`).digest('hex');
          return { sha, html_url: `https://github.com/${options.repository}/commit/${sha}`, commit: { message: c.message, committer: { date: commitDates[c.i] } } };
        });
      return send(200, list.slice(0, Number(url.searchParams.get('per_page') ?? 30)));
    }

    const contents = /^\/contents\/(.+)$/.exec(rest);
    if (!contents) return send(404, { message: 'Not Found', status: '404' });
    const filePath = decodeURIComponent(contents[1]!);
    const current = files.get(filePath);
    if (req.method === 'GET') {
      if ((url.searchParams.get('ref') ?? options.branch) !== options.branch || current === undefined) return send(404, { message: 'Not Found', status: '404' });
      const sha = blobSha(current);
      return send(200, {
        type: 'file',
        encoding: 'base64',
        size: Buffer.byteLength(current),
        name: filePath.split('/').pop(),
        path: filePath,
        content: base64(current),
        sha,
        url: `${repoPrefix}/contents/${filePath}`,
      });
    }
    if (req.method === 'PUT') {
      if (nextPutStatus !== null) {
        const status = nextPutStatus;
        nextPutStatus = null;
        return send(status, { message: status === 409 ? `${filePath} does not match ${body?.sha}` : 'Server Error', status: String(status) });
      }
      if (typeof body?.message !== 'string' || typeof body?.content !== 'string') return send(422, { message: 'Invalid request.', status: '422' });
      if (current !== undefined && !body.sha) return send(422, { message: 'Invalid request.\n\n"sha" wasn\'t supplied.', status: '422' });
      if (current !== undefined && body.sha !== blobSha(current)) return send(409, { message: `${filePath} does not match ${body.sha}`, status: '409' });
      if ((body.branch ?? options.branch) !== options.branch) return send(404, { message: 'Branch not found', status: '404' });
      const text = Buffer.from(body.content, 'base64').toString('utf8');
      files.set(filePath, text);
      const sha = blobSha(text);
      blobs.set(sha, text);
      commits.push({ path: filePath, message: body.message, branch: body.branch });
      commitDates.push(new Date().toISOString());
      return send(current === undefined ? 201 : 200, {
        content: { name: filePath.split('/').pop(), path: filePath, sha, size: Buffer.byteLength(text), type: 'file' },
        commit: { sha: createHash('sha1').update(`${commits.length}`).digest('hex'), message: body.message },
      });
    }
    return send(404, { message: 'Not Found', status: '404' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    commits,
    files,
    failNextPut(status) {
      nextPutStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
