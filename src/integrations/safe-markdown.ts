/**
 * How Astro renders the pages' Markdown bodies (astro.config.mjs):
 * - raw HTML in the Markdown is dropped, not passed through, and
 * - the build fails on raw HTML, on a link whose target is not https,
 *   http, mailto, tel or relative, or on hidden or control characters,
 *   checked on the parsed Markdown (entities decoded;
 *   src/lib/markdown-safety.ts), naming the file and the line.
 * The content editor's server refuses both on save; this is the second lock
 * for files changed by hand, and it matters because the build gives every
 * inline <script> of a page a CSP hash (inline-script-csp.ts), so a script
 * that reached the HTML would be allowed
 * (docs/decisions/031-content-editor-second-pass.md).
 */
import { treeProblems } from '../lib/markdown-safety';

export class UnsafeMarkdownError extends Error {
  override name = 'UnsafeMarkdownError';
}

/** A remark plugin: throws when the Markdown holds raw HTML or a disallowed link. */
export function refuseUnsafeMarkdown() {
  return (tree: unknown, file: { path?: string; history?: string[] }) => {
    const problems = treeProblems(tree as Parameters<typeof treeProblems>[0]);
    if (problems.length === 0) return;
    const where = file.path ?? file.history?.[0] ?? 'Markdown';
    const what = { html: 'HTML', link: 'link target', characters: 'hidden or control characters in' } as const;
    const list = problems.map((p) => `${what[p.kind]} ${JSON.stringify(p.excerpt)}${p.line ? ` (body line ${p.line})` : ''}`);
    throw new UnsafeMarkdownError(
      `${where}: field "body" (Text der Seite): ${list.join('; ')} not allowed: no raw HTML, links only to https, http, mailto, tel or relative addresses, no control, format (bidi) or noncharacters`,
    );
  };
}

export const safeMarkdown = {
  remarkPlugins: [refuseUnsafeMarkdown],
  remarkRehype: { allowDangerousHtml: false },
};
