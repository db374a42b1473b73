/** /api/admin/content/status: Netlify's deploy of the editor's last commit. */
import { contentStore } from '../content/store.server';
import { json } from '../http.server';
import { adminAction } from '../http/session-route.server';

export const publishState = adminAction({
  run: async () => {
    const store = await contentStore();
    const { publishStatus } = await import('../content/publish-status.server');
    return json(await publishStatus(store));
  },
});
