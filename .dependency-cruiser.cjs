/**
 * The layers, checked on every `npm test` (`npm run check:deps`):
 * - src/lib is shared by the pages, the islands and the server: it imports
 *   nothing from src/server, db or netlify;
 * - db is the bottom layer: it imports nothing from src;
 * - src/server imports nothing from src/integrations: those are Astro build
 *   steps; a rule both need (like the site URL) lives in src/lib;
 * - netlify/functions are shells: they import only the route tables
 *   (src/server/http) and their own actions module (src/server/actions);
 * - no circular imports anywhere.
 * Type-only imports count like any other: a type pulled from a higher
 * layer is still an arrow pointing up.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'lib-not-to-server-db-netlify',
      comment: 'src/lib is shared by pages, islands and server code: it imports nothing from src/server, db or netlify.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^(src/server|db|netlify)/' },
    },
    {
      name: 'db-not-to-src',
      comment: 'db is the bottom layer: it imports nothing from src (settings are handed to it).',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: '^src/' },
    },
    {
      name: 'server-not-to-integrations',
      comment:
        'src/integrations holds Astro build steps, a layer above the server: src/server imports nothing from it; a rule both need lives in src/lib (like src/lib/site-url.ts).',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/integrations/' },
    },
    {
      name: 'functions-only-to-server',
      comment:
        'netlify/functions are thin shells: they import only the route tables (src/server/http) and their own actions module (src/server/actions).',
      severity: 'error',
      from: { path: '^netlify/functions/' },
      to: { pathNot: '^src/server/(http|actions)/' },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves to a file or a package (Astro\'s and the build\'s virtual modules aside).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^(astro:|virtual:)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|build|\\.astro|\\.netlify|\\.data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
