/**
 * `npm run check:citations`: comments and docs cite what the repository holds.
 *
 * Finds, in every source, test, script and documentation file:
 * - a citation of a design note that lives outside the repository
 *   (SPEC, DESIGN, API or STYLE followed by `.md`): the rule belongs in
 *   docs/architecture.md or a record in docs/decisions/;
 * - an issue number (the word issue followed by a number) or a review
 *   round (an ordinal followed by round): neither means anything to a reader of
 *   the code; say the reason instead ("round trips" are fine, and so is
 *   "issue" as a word for a problem);
 * - a path under docs/ that names a file the repository does not have.
 *
 * Prints `file:line: what` for each and exits 1 when there is any.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Offence {
  file: string;
  line: number;
  what: string;
  text: string;
}

const SCANNED = /\.(ts|tsx|mts|cts|js|mjs|cjs|astro|md|css|json|toml|ya?ml|sql|html|sh)$/;
/** Build output, installed packages, local data and generated lock files. */
const SKIPPED_DIRS = new Set([
  'node_modules',
  'dist',
  'dist.next',
  'dist.old',
  'build',
  'coverage',
  'test-results',
  'playwright-report',
]);
const SKIPPED_FILES = new Set(['package-lock.json']);
/** This checker and its test spell out what they look for. */
const SELF = new Set(['scripts/check-citations.ts', 'tests/unit/citations.test.ts']);

const ORDINAL = '(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|previous|next|this|last|earlier|later)';

const RULES: { what: string; pattern: RegExp }[] = [
  {
    what: 'cites a design note outside the repository',
    pattern: /\b(?:SPEC|DESIGN|API|STYLE)\.md\b/,
  },
  {
    what: 'names an issue number',
    pattern: /\bissues?[\s-]*#?\d+/i,
  },
  {
    what: 'names a round',
    pattern: new RegExp(`\\b${ORDINAL}[\\s-]+(?:(?:attack|review)[\\s-]+)?rounds?\\b(?![\\s-]*trips?\\b)|\\brounds?[\\s-]+\\d+\\b`, 'i'),
  },
];

const DOCS_PATH = /(?<![\w./-])docs\/[\w./-]*[\w-]/g;

/** The offences in one file's text. `exists` answers whether a repository path exists. */
export function checkText(file: string, text: string, exists: (path: string) => boolean): Offence[] {
  const offences: Offence[] = [];
  text.split('\n').forEach((lineText, index) => {
    for (const rule of RULES) {
      if (rule.pattern.test(lineText)) {
        offences.push({ file, line: index + 1, what: rule.what, text: lineText.trim() });
      }
    }
    for (const match of lineText.matchAll(DOCS_PATH)) {
      const path = match[0].replace(/[.]+$/, '');
      if (!exists(path)) {
        offences.push({ file, line: index + 1, what: `names ${path}, which does not exist`, text: lineText.trim() });
      }
    }
  });
  return offences;
}

function walk(root: string, dir: string, files: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) walk(root, full, files);
    } else if (SCANNED.test(entry.name) && !SKIPPED_FILES.has(entry.name)) {
      files.push(relative(root, full).split(sep).join('/'));
    }
  }
}

/** Every offence in the repository at `root`, in file order. */
export function checkRepository(root: string): Offence[] {
  const files: string[] = [];
  walk(root, root, files);
  files.sort();
  const decisionStems = new Set(
    existsSync(join(root, 'docs/decisions'))
      ? readdirSync(join(root, 'docs/decisions')).map((name) => `docs/decisions/${name.slice(0, 3)}`)
      : [],
  );
  // `docs/decisions/003` names the record `docs/decisions/003-….md`.
  const exists = (path: string) => decisionStems.has(path) || existsSync(join(root, path));
  return files
    .filter((file) => !SELF.has(file))
    .flatMap((file) => {
      const full = join(root, file);
      if (statSync(full).size > 2_000_000) return [];
      return checkText(file, readFileSync(full, 'utf8'), exists);
    });
}

export function formatOffences(offences: Offence[]): string {
  return offences.map((o) => `${o.file}:${o.line}: ${o.what}: ${o.text.slice(0, 160)}`).join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  const offences = checkRepository(root);
  if (offences.length > 0) {
    console.log(formatOffences(offences));
    console.log(`\n${offences.length} citation(s) to fix: cite docs/ or say the reason in its own words.`);
    process.exit(1);
  }
  console.log('Citations: every comment and doc cites docs/ and nothing else.');
}
