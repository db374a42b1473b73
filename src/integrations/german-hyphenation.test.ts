import { describe, expect, it } from 'vitest';
import { hyphenateGermanHeadings } from './german-hyphenation';

const SHY = '\u00AD';
const page = (body: string, lang = 'de') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Laboruntersuchungen</title><script>const x = "Laboruntersuchungen";</script></head><body>${body}</body></html>`;

describe('soft hyphens in German headings', () => {
  it('splits the long words of German headings into syllables', () => {
    const out = hyphenateGermanHeadings(page('<h1 class="x">Laboruntersuchungen</h1><h2>Berufshaftpflichtversicherung &amp; mehr</h2>'));
    expect(out).toContain(`<h1 class="x">La${SHY}bor${SHY}un${SHY}ter${SHY}su${SHY}chun${SHY}gen</h1>`);
    expect(out).toContain(`<h2>Be${SHY}rufs${SHY}haft${SHY}pflicht${SHY}ver${SHY}si${SHY}che${SHY}rung &amp; mehr</h2>`);
  });

  it('leaves everything else byte for byte: body text, the title, scripts, short words', () => {
    const html = page('<h3>Kurze Wörter</h3><p>Laboruntersuchungen im Text</p>');
    expect(hyphenateGermanHeadings(html)).toBe(html);
  });

  it('reaches into a heading’s inline elements, but not English parts, English pages or islands', () => {
    const out = hyphenateGermanHeadings(
      page('<h2><span>Datenschutzerklärung</span> <span lang="en">Notwithstanding</span></h2><astro-island><h2>Laboruntersuchungen</h2></astro-island>'),
    );
    expect(out).toContain(`<span>Da${SHY}ten${SHY}schutz${SHY}er${SHY}klä${SHY}rung</span>`);
    expect(out).toContain('<span lang="en">Notwithstanding</span>');
    expect(out).toContain('<astro-island><h2>Laboruntersuchungen</h2></astro-island>');
    const english = page('<h1>Laboruntersuchungen</h1>', 'en');
    expect(hyphenateGermanHeadings(english)).toBe(english);
    expect(hyphenateGermanHeadings(page('<aside lang="de"><h2>Laboruntersuchungen</h2></aside>', 'en'))).toContain(`La${SHY}bor`);
  });
});
