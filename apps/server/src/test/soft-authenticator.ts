import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey authenticator for the API tests (issue 32), on node:crypto: P-256 keys (ES256), attestation
 * `none`, assertions signed over authenticatorData ‖ SHA-256(clientDataJSON) as a browser and its authenticator would.
 * Each credential is discoverable: it keeps its user handle, and its counter goes up on every use unless set.
 */
export type SoftCredential = { id: Buffer; privateKey: KeyObject; x: Buffer; y: Buffer; userHandle: string; counter: number };

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  constructor(
    readonly origin = 'http://divan.test',
    readonly rpId = 'divan.test',
  ) {}

  /** A new credential for the options of `/passkeys/options`: the RegistrationResponseJSON a browser sends. */
  register(options: { challenge: string; user: { id: string } }, opts: { origin?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cred: SoftCredential = {
      id: randomBytes(16),
      privateKey,
      x: Buffer.from(jwk.x!, 'base64url'),
      y: Buffer.from(jwk.y!, 'base64url'),
      userHandle: options.user.id,
      counter: 0,
    };
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(cred.x)],
        [-3, new Uint8Array(cred.y)],
      ]),
    );
    const idLen = Buffer.alloc(2);
    idLen.writeUInt16BE(cred.id.length);
    const authData = Buffer.concat([
      sha256(this.rpId),
      Buffer.from([UP | UV | AT]),
      counterBytes(cred.counter),
      Buffer.alloc(16), // AAGUID: none
      idLen,
      cred.id,
      Buffer.from(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, opts.origin);
    const response = {
      id: b64(cred.id),
      rawId: b64(cred.id),
      type: 'public-key' as const,
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(Buffer.from(attestationObject)), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
    return { cred, response };
  }

  /** An AuthenticationResponseJSON for `challenge`; `counter` overrides the next counter (a cloned key's). */
  assert(cred: SoftCredential, challenge: string, opts: { counter?: number; origin?: string; userHandle?: string | null } = {}) {
    cred.counter = opts.counter ?? cred.counter + 1;
    const authData = Buffer.concat([sha256(this.rpId), Buffer.from([UP | UV]), counterBytes(cred.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', challenge, opts.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.privateKey);
    return {
      id: b64(cred.id),
      rawId: b64(cred.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
        ...(opts.userHandle === null ? {} : { userHandle: opts.userHandle ?? cred.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}

function counterBytes(n: number) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
