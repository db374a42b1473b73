import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { PASSKEY_CHALLENGE_TTL_SECONDS, signInOptions } from './passkey-sign-in.server';

describe('passkey sign-in options', () => {
  it('are the object the WebAuthn library builds for the same challenge and arguments', async () => {
    const challenge = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) % 256);
    const library = await generateAuthenticationOptions({
      rpID: 'praxis.example',
      challenge,
      userVerification: 'required',
      timeout: PASSKEY_CHALLENGE_TTL_SECONDS * 1000,
    });
    // As the browser receives them: JSON, where the library's undefined fields vanish.
    expect(JSON.parse(JSON.stringify(signInOptions('praxis.example', challenge)))).toEqual(JSON.parse(JSON.stringify(library)));
  });

  it('carry a fresh challenge of 32 random bytes, base64url without padding', () => {
    const a = signInOptions('praxis.example');
    const b = signInOptions('praxis.example');
    expect(a.challenge).not.toBe(b.challenge);
    expect(a.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.challenge, 'base64url')).toHaveLength(32);
    expect(a).toMatchObject({ rpId: 'praxis.example', userVerification: 'required', timeout: 300_000 });
    expect(a).not.toHaveProperty('allowCredentials');
  });
});
