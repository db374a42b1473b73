/** See island-translations.ts: one language's dictionary, restricted to some namespaces. */
declare module 'virtual:island-translations/*' {
  const translation: Record<string, string>;
  export default translation;
}
