/**
 * A page as a browser without JavaScript shows it, in a context that runs
 * scripts: axe needs scripts of its own (it cannot run where scripts are
 * off), so every document this page loads comes with its scripts dropped
 * and its <noscript> parts shown as plain elements, which is what a
 * browser without JavaScript renders. The site's styles load as usual.
 */
import type { Page } from '@playwright/test';

export function withoutScripts(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '').replace(/<\/?noscript\b[^>]*>/gi, '');
}

export async function showAsWithoutScripts(page: Page): Promise<void> {
  await page.route('**/*', async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const headers = { ...response.headers() };
    // The body is handed over decoded and changed: its former encoding and length no longer apply.
    delete headers['content-encoding'];
    delete headers['content-length'];
    const type = headers['content-type'] ?? '';
    await route.fulfill({ response, headers, body: type.includes('text/html') ? withoutScripts(await response.text()) : await response.body() });
  });
}
