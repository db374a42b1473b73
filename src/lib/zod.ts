/**
 * zod, configured once for the browser and the server (`import * as z from
 * './zod'`): its tree-shaken build, `zod/mini` (functions instead of methods: `z.optional(s)`,
 * `s.check(z.minLength(2))`, `z.pipe(s, z.transform(f))`), so a function or
 * an island carries only the schema kinds and checks it uses; the classic
 * build's methods keep all of zod in every bundle, which cost every
 * function's cold start more than any other module (docs/decisions/023).
 * `jitless` stops zod from probing `new Function` for its compiled object
 * parser: the site's Content-Security-Policy forbids eval, and the probe,
 * though caught, is reported as a CSP violation on every page whose island
 * validates a form.
 */
import { config } from 'zod/mini';

config({ jitless: true });

// Re-exported name by name (`export *`), never as one object: code imports
// `* as z` from here and uses `z.string()` etc., which lets the bundler keep
// only the functions a bundle calls. A namespace object passed on as a value
// (`export { z }`) would keep all of zod in every bundle.
export * from 'zod/mini';
