/**
 * For tests: a passkey authenticator in software, answering WebAuthn's two ceremonies as a browser with a
 * platform authenticator would (an ES256 key, "none" attestation, a signature counter), so the server's
 * ceremonies can be tested through its real endpoints and SimpleWebAuthn's real checks. Only what a test
 * needs: one origin per answer, given by the caller, who may give a wrong one on purpose.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

export interface SoftwarePasskey {
  id: string;
  rpID: string;
  /** The user handle the server gave at registration (base64url). */
  userHandle: string;
  privateKey: KeyObject;
  counter: number;
}

/** Options as the server sent them (JSON): just what an authenticator reads. */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

export function createSoftwareAuthenticator(settings: { userVerified?: boolean } = {}) {
  const flags = FLAG_USER_PRESENT | (settings.userVerified === false ? 0 : FLAG_USER_VERIFIED);
  const keys: SoftwarePasskey[] = [];

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    keys,
    /** Makes a new passkey for `options` (navigator.credentials.create) and answers as the browser would. */
    register(options: CreationOptions, origin: string) {
      const rpID = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
          [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
        ]),
      );
      const id = randomBytes(16);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(id.length);
      const authData = Buffer.concat([
        sha256(rpID),
        Buffer.from([flags | FLAG_ATTESTED_DATA]),
        counterBytes(0),
        Buffer.alloc(16), // AAGUID: none
        idLength,
        id,
        Buffer.from(cose),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, never> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, never>()],
          ['authData', new Uint8Array(authData)],
        ]),
      );
      keys.push({ id: b64url(id), rpID, userHandle: options.user.id, privateKey, counter: 0 });
      return {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },

    /**
     * Signs `options`' challenge with `key` (navigator.credentials.get), its counter moved on by one;
     * `counter` sets it instead (a cloned authenticator's replay).
     */
    authenticate(options: RequestOptions, origin: string, key: SoftwarePasskey, counter = key.counter + 1) {
      key.counter = Math.max(key.counter, counter);
      const authData = Buffer.concat([sha256(options.rpId ?? key.rpID), Buffer.from([flags]), counterBytes(counter)]);
      const data = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), key.privateKey);
      return {
        id: key.id,
        rawId: key.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: key.userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}
