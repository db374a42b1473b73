/**
 * zod, configured once for the browser and the server. `jitless` stops zod
 * from probing `new Function` for its compiled object parser: the site's
 * Content-Security-Policy forbids eval, and the probe, though caught, is
 * reported as a CSP violation on every page whose island validates a form.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
export type { ZodError, ZodType } from 'zod';
