import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, withScriptPolicyMeta } from './inline-script-csp';

const sha = (s: string) => `sha256-${createHash('sha256').update(s).digest('base64')}`;

describe('inline script CSP', () => {
  const page = [
    '<!doctype html><html><head><meta charset="utf-8"><title>x</title>',
    '<script type="module">console.log("nav")</script>',
    '<script is:inline>var a = 1;</script>',
    '<script type="module" src="/_astro/a.js"></script>',
    '<script type="application/ld+json">{"@type":"Thing"}</script>',
    '</head><body><script>\n  document.documentElement.dataset.x = "1";\n</script></body></html>',
  ].join('');

  it('hashes exactly the executable inline scripts, byte for byte', () => {
    expect(inlineScriptHashes(page)).toEqual([
      sha('console.log("nav")'),
      sha('var a = 1;'),
      sha('\n  document.documentElement.dataset.x = "1";\n'),
    ]);
  });

  it('puts one policy right after <meta charset>, before any script, without unsafe-inline or unsafe-eval', () => {
    const out = withScriptPolicyMeta(page);
    const meta = /<meta http-equiv="content-security-policy" content="([^"]+)">/.exec(out);
    expect(meta).not.toBeNull();
    expect(out.indexOf(meta![0])).toBe(out.indexOf('<meta charset="utf-8">') + '<meta charset="utf-8">'.length);
    expect(out.indexOf(meta![0])).toBeLessThan(out.indexOf('<script'));
    const policy = meta![1]!;
    expect(policy).toMatch(/^script-src 'self' /);
    expect(policy).toContain(`'${sha('console.log("nav")')}'`);
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    // Style and other fetch rules stay with the header: a meta default-src would override 'unsafe-inline' styles.
    expect(policy).not.toMatch(/default-src|style-src/);
  });

  it('a page without inline scripts allows only the site\'s own script files', () => {
    const out = withScriptPolicyMeta('<html><head><meta charset="utf-8"></head><body></body></html>');
    expect(out).toContain(`content="script-src 'self'; object-src 'none'; base-uri 'self'"`);
  });
});
