/**
 * How Astro renders the pages' Markdown bodies (astro.config.mjs): raw HTML
 * in the Markdown is dropped, not passed through. Editors write Markdown in
 * the content editor, whose server already refuses script-bearing HTML; this
 * is the second lock for files changed by hand, and it matters because the
 * build gives every inline <script> of a page a CSP hash
 * (inline-script-csp.ts), so a script that reached the HTML would be allowed.
 */
export const safeMarkdown = {
  remarkRehype: { allowDangerousHtml: false },
};
