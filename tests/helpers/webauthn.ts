/**
 * A software authenticator for the passkey integration tests: it answers
 * the server's WebAuthn options as a browser with a platform authenticator
 * would (ES256 keys, "none" attestation, discoverable credentials), and
 * lets a test change what a real one never would (the origin, user
 * verification, a counter that goes backwards) to see the server refuse it.
 */
import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';

interface Credential {
  id: string;
  privateKey: KeyObject;
  userHandle: string;
  rpId: string;
  counter: number;
}

const b64 = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** Flags of the authenticator data: user present, user verified, attested credential data. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface CeremonyTweaks {
  /** The origin the "browser" writes into clientDataJSON (default: the site's). */
  origin?: string;
  /** Whether the user was verified (default true). */
  userVerified?: boolean;
  /** The relying party id whose hash goes into the authenticator data (default: the options'). */
  rpId?: string;
  /** The counter to report instead of the next one. */
  counter?: number;
  /** The challenge to sign instead of the options' (base64url). */
  challenge?: string;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(private readonly origin: string) {}

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a new ES256 credential for the options' user. */
  register(options: PublicKeyCredentialCreationOptionsJSON, tweaks: CeremonyTweaks = {}): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Uint8Array.from(Buffer.from(jwk.x!, 'base64url'))],
        [-3, Uint8Array.from(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const credentialId = randomBytes(32);
    const rpId = tweaks.rpId ?? options.rp.id!;
    const counter = tweaks.counter ?? 0;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([UP | (tweaks.userVerified === false ? 0 : UV) | AT]),
      u32(counter),
      Buffer.alloc(16),
      Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
      credentialId,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', Uint8Array.from(authData)],
      ]) as never,
    );
    const clientDataJSON = this.clientData('webauthn.create', tweaks.challenge ?? options.challenge, tweaks.origin ?? this.origin);
    this.credentials.push({ id: b64(credentialId), privateKey, userHandle: options.user.id, rpId, counter });
    return {
      id: b64(credentialId),
      rawId: b64(credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(): an assertion by a credential this authenticator holds (the newest unless named). */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, tweaks: CeremonyTweaks & { credentialId?: string } = {}): AuthenticationResponseJSON {
    const credential = tweaks.credentialId ? this.credentials.find((c) => c.id === tweaks.credentialId) : this.credentials.at(-1);
    if (!credential) throw new Error('no credential');
    credential.counter = tweaks.counter ?? credential.counter + 1;
    const rpId = tweaks.rpId ?? options.rpId ?? credential.rpId;
    const authData = Buffer.concat([sha256(rpId), Buffer.from([UP | (tweaks.userVerified === false ? 0 : UV)]), u32(credential.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', tweaks.challenge ?? options.challenge, tweaks.origin ?? this.origin);
    const signature = createSign('sha256').update(Buffer.concat([authData, sha256(clientDataJSON)])).sign(credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
