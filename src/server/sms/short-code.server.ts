/** Characters of a short link's code (docs/decisions/043-sms-second-channel.md); apart so that following a link loads no message texts. */
export const SHORT_CODE_LENGTH = 12;
