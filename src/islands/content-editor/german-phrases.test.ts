/**
 * The project's German for Decap: every override replaces a phrase Decap
 * really has (a misspelt path would change nothing), the clumsy phrases
 * are gone, and the placeholders Decap fills in are kept.
 */
// Decap's own German (the package's index needs a browser).
import de from 'decap-cms-locales/dist/esm/de/index.js';
import { describe, expect, it } from 'vitest';
import { GERMAN_OVERRIDES, withOverrides } from './german-phrases';

type Phrases = { [key: string]: string | Phrases };

function leaves(phrases: Phrases, prefix: string[] = []): Array<[string[], string]> {
  return Object.entries(phrases).flatMap(([k, v]) => (typeof v === 'string' ? [[[...prefix, k], v] as [string[], string]] : leaves(v, [...prefix, k])));
}
const at = (phrases: Phrases, path: string[]) => path.reduce<unknown>((node, key) => (node as Phrases | undefined)?.[key], phrases);

describe("Decap's German, corrected", () => {
  const merged = withOverrides(de as unknown as Phrases, GERMAN_OVERRIDES);

  it('overrides only phrases Decap has, keeping their placeholders', () => {
    for (const [path, text] of leaves(GERMAN_OVERRIDES)) {
      const original = at(de as unknown as Phrases, path);
      expect(typeof original, path.join('.')).toBe('string');
      const placeholders = (s: string) => (s.match(/%\{\w+\}/g) ?? []).sort();
      expect(placeholders(text), path.join('.')).toEqual(placeholders(original as string));
      expect(at(merged, path)).toBe(text);
    }
  });

  it('no longer says "Zurück zu allen Startseite", "Überprüfen ob …" or "Oops"', () => {
    const all = leaves(merged).map(([, text]) => text);
    expect(all.join('\n')).not.toMatch(/Zurück zu allen|Überprüfen ob|Oops|bishergen|korrrekt|speicheren|berichte ihn/);
    expect(at(merged, ['editor', 'editorToolbar', 'backCollection'])).toBe('Zurück zur Übersicht: %{collectionLabel}');
    // Phrases not overridden stay Decap's.
    expect(at(merged, ['editor', 'editorToolbar', 'publishNow'])).toBe('Jetzt veröffentlichen');
  });
});

describe('the editor agrees with the publish state and keeps German capitals', () => {
  const merged = withOverrides(de as unknown as Phrases, GERMAN_OVERRIDES);

  it('the toolbar badge of a saved entry says "Gespeichert": whether it is live is the state above the editor', () => {
    expect(at(merged, ['editor', 'editorToolbar', 'published'])).toBe('Gespeichert');
  });

  it('list headings and "… hinzufügen" keep the label as written (decap-cms-widget-list patched: no lower-casing)', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile('node_modules/decap-cms-widget-list/dist/esm/ListControl.js', 'utf8');
    expect(source).not.toMatch(/label(Singular)?\.toLowerCase\(\)/);
    expect(source).toContain('const listLabel = items.size === 1 ? labelSingular : label;');
  });
});
