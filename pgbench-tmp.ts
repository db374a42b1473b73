import { PGlite } from '@electric-sql/pglite';
import { openEmbeddedDatabase } from '/work/wt-suite/db/pglite';
let t = performance.now();
const c = new PGlite(); await c.waitReady; console.log('new PGlite', Math.round(performance.now() - t)); t = performance.now();
const h = await openEmbeddedDatabase('pglite:memory', '/tmp'); console.log('open+migrate', Math.round(performance.now() - t)); t = performance.now();
const h2 = await openEmbeddedDatabase('pglite:memory', '/tmp'); console.log('open+migrate 2nd', Math.round(performance.now() - t)); t = performance.now();
const raw = new PGlite(); await raw.waitReady; const dump = await (h2 as any).db.$client.dumpDataDir('none'); console.log('dump', Math.round(performance.now() - t), dump.size); t = performance.now();
const c3 = new PGlite({ loadDataDir: dump }); await c3.waitReady; console.log('load dump', Math.round(performance.now() - t));
