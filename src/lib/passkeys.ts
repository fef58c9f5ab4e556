/**
 * The browser's half of a passkey ceremony: the server's options handed to the authenticator through
 * @simplewebauthn/browser, which is loaded only when a passkey is used (the sign-in page and the first
 * page stay small), and what a person reads when the browser refuses. Only returns or throws, like the
 * fetch layer; callers decide what is shown.
 */
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

const webAuthn = () => import('@simplewebauthn/browser');

/** Makes a new passkey from the server's registration options; resolves to the answer to send back. */
export async function createPasskey(options: unknown): Promise<unknown> {
  const { startRegistration } = await webAuthn();
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/** Has the person choose one of their passkeys for the server's authentication options; resolves to the answer. */
export async function choosePasskey(options: unknown): Promise<unknown> {
  const { startAuthentication } = await webAuthn();
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
}

/** The DOMException's name beneath SimpleWebAuthn's error, or the error's own. */
function causeName(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.name : error.name;
}

/**
 * What a person reads when the browser or the authenticator stopped the ceremony; null for an error that
 * is not the browser's (our server's answer: the caller explains those).
 */
export function passkeyProblem(error: unknown): string | null {
  if (!(error instanceof Error) || error.name === 'ApiError') return null;
  const code = (error as { code?: unknown }).code;
  if (error.message === 'WebAuthn is not supported in this browser') {
    return 'This browser cannot use passkeys. Use another browser, or sign in with your password.';
  }
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') {
    return 'This device already holds one of your passkeys for site-admin: use that one, or add a passkey on another device.';
  }
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || causeName(error) === 'SecurityError') {
    return 'Passkeys work only at this site’s own address (a domain name over HTTPS, or localhost), not at an IP address.';
  }
  if (causeName(error) === 'NotAllowedError' || causeName(error) === 'AbortError' || code === 'ERROR_CEREMONY_ABORTED') {
    return 'No passkey was used: the browser’s prompt was closed or timed out. Try again when you are ready.';
  }
  if (error.name === 'TypeError' && /dynamically imported module|Importing a module script/i.test(error.message)) {
    return 'A script of this page could not be loaded from the server; check the connection and try again.';
  }
  return `The passkey could not be used: ${error.message}`;
}
