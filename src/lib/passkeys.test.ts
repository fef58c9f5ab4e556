/**
 * What a person reads when the browser stops a passkey ceremony: each refusal as the browser raises it
 * (a DOMException from navigator.credentials), through SimpleWebAuthn's own handling, to our words.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiErrors } from './api-error';
import { choosePasskey, createPasskey, passkeyProblem } from './passkeys';

const CREATION_OPTIONS = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'site-admin' },
  user: { id: 'dXNlcg', name: 'ada@example.com', displayName: 'Ada' },
  pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
  excludeCredentials: [],
};
const REQUEST_OPTIONS = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [] };

/** A browser whose authenticator refuses with `name`, as navigator.credentials does. */
function browserRefusing(name: string) {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  vi.stubGlobal('location', { hostname: 'localhost' });
  const refuse = () => Promise.reject(new DOMException('The browser said no.', name));
  vi.stubGlobal('navigator', { credentials: { create: refuse, get: refuse } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('passkeyProblem', () => {
  it('explains a prompt the person closed, or that timed out, on adding and on signing in', async () => {
    browserRefusing('NotAllowedError');
    const adding = await createPasskey(CREATION_OPTIONS).catch((error: unknown) => error);
    expect(passkeyProblem(adding)).toMatch(/^No passkey was used: the browser’s prompt was closed or timed out/);
    const signingIn = await choosePasskey(REQUEST_OPTIONS).catch((error: unknown) => error);
    expect(passkeyProblem(signingIn)).toMatch(/^No passkey was used/);
  });

  it('says the device already holds one of the person’s passkeys', async () => {
    browserRefusing('InvalidStateError');
    const error = await createPasskey(CREATION_OPTIONS).catch((e: unknown) => e);
    expect(passkeyProblem(error)).toMatch(/^This device already holds one of your passkeys/);
  });

  it('says where passkeys work when the address is not a domain', async () => {
    browserRefusing('SecurityError');
    vi.stubGlobal('location', { hostname: '127.0.0.1' });
    const error = await choosePasskey({ ...REQUEST_OPTIONS, rpId: '127.0.0.1' }).catch((e: unknown) => e);
    expect(passkeyProblem(error)).toMatch(/not at an IP address/);
  });

  it('says so when the browser has no passkeys at all', async () => {
    const error = await createPasskey(CREATION_OPTIONS).catch((e: unknown) => e);
    expect(passkeyProblem(error)).toMatch(/^This browser cannot use passkeys/);
  });

  it('leaves our server’s answers to the caller', () => {
    expect(passkeyProblem(apiErrors.noAnswer())).toBeNull();
    expect(passkeyProblem('not an error')).toBeNull();
  });
});
