/**
 * The suite's axe (helpers/axe.ts: in the page, violations only) still
 * finds what it is there to find: a page with an image without a text
 * alternative, grey text too faint to read and a field without a label
 * reports all three, and a clean page reports none.
 */
import { expect, test } from './helpers/test';
import { axeBuilder, WCAG22_AA } from './helpers/axe';

const page = (body: string) => `<!doctype html><html lang="de"><head><title>Prüfseite</title></head><body><main><h1>Prüfseite</h1>${body}</main></body></html>`;

test('the axe helper reports violations, and none on a clean page', async ({ page: tab }) => {
  await tab.setContent(
    page(
      '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="10" height="10">' +
        '<p style="color:#c8c8c8;background:#ffffff">Kaum lesbar</p>' +
        '<input type="text">',
    ),
  );
  const found = await axeBuilder(tab).withTags(WCAG22_AA).analyze();
  expect(found.violations.map((v) => v.id).sort()).toEqual(['color-contrast', 'image-alt', 'label']);
  expect(found.violations.find((v) => v.id === 'image-alt')!.nodes.map((n) => n.target.join(' '))).toEqual(['img']);

  await tab.setContent(page('<p>Gut lesbar</p><label>Name <input type="text"></label>'));
  expect((await axeBuilder(tab).withTags(WCAG22_AA).analyze()).violations).toEqual([]);
});
