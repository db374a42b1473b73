/**
 * libphonenumber-js's mobile rules, apart so that numbers.server.ts loads
 * them on demand and a bundle keeps only the one function it uses (the
 * package's index would bring its whole formatter along).
 */
export { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
