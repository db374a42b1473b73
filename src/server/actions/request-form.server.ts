/**
 * /anfrage/formular, /en/request/form: the request form as the server
 * renders it for a browser without JavaScript, with the kinds the practice
 * takes now and its notice; with `?sent=…&tag=…` (the 303 after a form
 * post) it shows the reference the post received
 * (docs/decisions/040-pages-without-javascript-and-repeated-requests.md).
 * A read: it writes nothing.
 */
import { langFromPath, localizedPath } from '../../i18n/languages';
import { readEnv } from '../env.server';
import { html, queryOf } from '../http.server';
import { publicAction } from '../http/route.server';
import { fetchSitePage } from '../page-answer.server';
import { requestPages } from '../built-pages/request-pages';
import { requestPageHtml, sentReferenceOf } from '../requests/form-answer.server';
import { settingsIfReadable } from '../requests/settings.server';

export const showRequestForm = publicAction({
  run: async ({ db, req }) => {
    const lang = langFromPath(new URL(req.url).pathname);
    const reference = sentReferenceOf(queryOf(req));
    const [sitePage, settings] = await Promise.all([fetchSitePage(readEnv().SITE_URL, localizedPath('/anfrage', lang), requestPages), settingsIfReadable(db)]);
    const page = requestPageHtml({ lang, result: reference ? { kind: 'sent', reference } : null, values: {}, settings }, sitePage);
    return html(page, { status: sitePage ? 200 : 503 });
  },
});
