/** The common-password list of zxcvbn-ts (decompressed at import): one lower-case password per entry. */
declare module '@zxcvbn-ts/language-common/dist/passwords.json.mjs' {
  const passwords: string[];
  export default passwords;
}
