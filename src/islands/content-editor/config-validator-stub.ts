/**
 * Stands in for Ajv inside Decap CMS's configuration check (decap-cms-core
 * `validateConfig`). Ajv compiles each JSON schema into a function with
 * `new Function`, which the site's Content-Security-Policy forbids
 * (no 'unsafe-eval', docs/architecture.md, Security), so in the browser the check would stop
 * the editor. The check exists to explain mistakes in a hand-written
 * configuration; ours is generated from the content schemas
 * (cms-config.ts, with its unit test) and loaded whole by the editor's
 * end-to-end test, so the browser skips it. Only decap-cms-core's import
 * of 'ajv' is pointed here (src/integrations/content-editor-build.ts); the
 * keyword plugins it adds only register themselves.
 */
export default class ConfigValidatorStub {
  readonly opts = { allErrors: true, $data: true, strict: false };
  errors: null = null;

  addKeyword(): this {
    return this;
  }

  validate(): boolean {
    return true;
  }
}
