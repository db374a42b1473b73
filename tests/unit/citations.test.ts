/**
 * Comments and docs cite what the repository holds (docs/architecture.md,
 * docs/decisions/), never design notes kept elsewhere, issue numbers or
 * review rounds; `npm run check:citations` prints the same list.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRepository, checkText, formatOffences } from '../../scripts/check-citations';

const noFiles = () => false;
const onlyArchitecture = (p: string) => p === 'docs/architecture.md';

describe('citation check', () => {
  it('finds outside design notes, issue numbers and rounds', () => {
    const text = [
      `// the rule (${'DESIGN'}.md, Time)`,
      `/** see ${'SPEC'}.md §5 and ${'API'}.md */`,
      `// asked for in ${'issue'} 22, point 7`,
      '// issues 18–23 and pre-issue-11',
      `// a ${'third'} round change`,
      `// (${'fourth'}-round) and ${'Round'} 2`,
      '// 029-patient-details-fourth-attack-round',
    ].join('\n');
    expect(checkText('x.ts', text, noFiles).map((o) => o.line)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('leaves round trips, "issue" as a word and docs/ citations alone', () => {
    const text = [
      '// two round trips per booking; the first round trip opens the transaction',
      '// one more issue: the browser reports an issue',
      '// see docs/architecture.md, Time',
      '// rounded to 5 minutes; round(x)',
    ].join('\n');
    expect(checkText('x.ts', text, onlyArchitecture)).toEqual([]);
  });

  it('finds a docs/ path that does not exist', () => {
    const offences = checkText('x.ts', '// docs/decisions/099-nothing.md', noFiles);
    expect(offences).toHaveLength(1);
    expect(offences[0]!.what).toContain('does not exist');
  });

  it('finds nothing in the repository', () => {
    const offences = checkRepository(path.resolve(__dirname, '../..'));
    expect(formatOffences(offences)).toBe('');
  });
});
