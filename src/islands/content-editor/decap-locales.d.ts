/** Decap's German phrases, read by german-phrases.test.ts (the package ships no types). */
declare module 'decap-cms-locales/dist/esm/de/index.js' {
  const de: Record<string, unknown>;
  export default de;
}
