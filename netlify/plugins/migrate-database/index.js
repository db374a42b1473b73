/**
 * A local Netlify build plugin: applies the database migrations
 * (`npm run db:migrate`) at onPostBuild, which Netlify runs only after the
 * build command succeeded AND every function has bundled. A deploy whose
 * build or function bundling fails therefore never migrates the database;
 * one whose migration fails is not published. The functions still live
 * meanwhile are the previous deploy's, so every migration must keep them
 * working: expand now, contract in a later release
 * (docs/decisions/024-migrations-after-bundling-expand-contract.md).
 *
 * db/migrate-cli.ts decides the rest: production context only (deploy
 * previews only with MIGRATE_DEPLOY_PREVIEW=true), the unpooled URL, and a
 * refusal of transaction poolers.
 */
export const onPostBuild = async ({ utils }) => {
  try {
    await utils.run.command('npm run db:migrate');
  } catch (error) {
    const output = `${error?.stderr ?? ''}\n${error?.stdout ?? ''}`;
    const reason = /db:migrate failed: .*/.exec(output)?.[0] ?? 'db:migrate failed (see the log above)';
    utils.build.failBuild(reason);
  }
};
