/**
 * What a page's Markdown body may contain, checked on the parsed Markdown
 * (docs/decisions/031-content-editor-second-pass.md): the editor's server
 * refuses a save with a problem (src/server/content/check.server.ts) and
 * the build fails on one (src/integrations/safe-markdown.ts), so a file
 * changed by hand cannot publish it either.
 *
 * - No raw HTML: the pages' Markdown is text, links and lists. A tag
 *   (`<script>`, `<b>`, a comment) is refused, not escaped.
 * - Links and link definitions lead only to https, http, mailto and tel
 *   targets or to a relative address. The target is checked as the parser
 *   decoded it (character references like `&#58;` or `&#106;` resolved),
 *   with the ASCII whitespace and control characters a browser strips from
 *   a URL removed, so `javascript&#58;…` is a javascript: link here too.
 * - No hidden characters: every text, link target, title and alternative
 *   text, as decoded, follows the floor of every text the site takes
 *   (isAcceptableString: no control character but TAB and line breaks, no
 *   format or bidi character, no noncharacter), so `&#x202E;` cannot
 *   publish what the raw file refuses
 *   (docs/decisions/037-passkeys-sessions-guessing.md).
 */
import { fromMarkdown } from 'mdast-util-from-markdown';
import { isAcceptableString } from './text-input';

export const ALLOWED_LINK_SCHEMES = ['https', 'http', 'mailto', 'tel'] as const;

export interface MarkdownProblem {
  kind: 'html' | 'link' | 'characters';
  /** The offending tag or link target, shortened, for a message. */
  excerpt: string;
  /** 1-based line in the Markdown, when known. */
  line?: number;
}

interface MdNode {
  type: string;
  url?: string;
  value?: string;
  title?: string | null;
  alt?: string | null;
  children?: MdNode[];
  position?: { start: { line: number } };
}

const shorten = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}…` : text);

/** The scheme a browser would see in `url` (lower case), or null for a relative address. */
export function linkScheme(url: string): string | null {
  // Browsers drop ASCII tab and newlines anywhere and leading/trailing C0 controls and spaces.
  // eslint-disable-next-line no-control-regex
  const cleaned = url.replace(/[\u0000-\u0020\u007f]/g, '');
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  return match ? match[1]!.toLowerCase() : null;
}

/** Whether a link target is allowed on a public page. */
export function isAllowedLink(url: string): boolean {
  const scheme = linkScheme(url);
  return scheme === null || (ALLOWED_LINK_SCHEMES as readonly string[]).includes(scheme);
}

/** Problems in an already parsed Markdown tree (mdast), as remark hands it to a plugin. */
export function treeProblems(tree: MdNode): MarkdownProblem[] {
  const problems: MarkdownProblem[] = [];
  // A stack, not recursion: deeply nested quotes or lists cannot overflow it.
  const stack: MdNode[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const line = node.position?.start.line;
    if (node.type === 'html') problems.push({ kind: 'html', excerpt: shorten((node.value ?? '').trim()), line });
    if ((node.type === 'link' || node.type === 'definition' || node.type === 'image') && typeof node.url === 'string' && !isAllowedLink(node.url)) {
      problems.push({ kind: 'link', excerpt: shorten(node.url), line });
    }
    const texts = [node.type === 'html' ? undefined : node.value, node.url, node.title, node.alt];
    if (texts.some((t) => typeof t === 'string' && !isAcceptableString(t))) {
      problems.push({ kind: 'characters', excerpt: shorten(JSON.stringify(node.value ?? node.url ?? '').slice(1, -1)), line });
    }
    for (let i = (node.children?.length ?? 0) - 1; i >= 0; i--) stack.push(node.children![i]!);
  }
  return problems;
}

/** Problems in a Markdown text. */
export function markdownProblems(markdown: string): MarkdownProblem[] {
  return treeProblems(fromMarkdown(markdown) as unknown as MdNode);
}

/** Raw HTML in a one-line text field (a heading, a label): a tag, a comment or a declaration. */
export function hasHtmlTag(text: string): boolean {
  return /<\/?[A-Za-z][^>]*>|<!--|<![A-Za-z]|<\?/.test(text);
}
