/**
 * Single sign-on with OpenID Connect, as the browser and the server both know it: the start address (a
 * plain link: the server answers with a redirect to the identity provider), the callback the provider
 * sends the person back to, and what the sign-in page says when the server sends the person back with
 * `?sign-in-error=<code>` instead of a session.
 */

/** GET: starts a sign-in at the identity provider (302 there). */
export const SSO_START_PATH = '/api/sign-in/sso/start';
/** GET: where the identity provider sends the person back (SSO_REDIRECT_URL ends in it). */
export const SSO_CALLBACK_PATH = '/api/sign-in/sso/callback';
/** The query parameter of `/` that names why a single sign-on did not sign the person in. */
export const SIGN_IN_ERROR_PARAM = 'sign-in-error';

/** Why a single sign-on failed, in the words the sign-in page shows. */
export const SSO_ERRORS = {
  'sso-off': 'Single sign-on is not set up on this server.',
  'sso-provider': 'The identity provider could not be reached. Try again in a moment, or sign in with your password.',
  'sso-denied': 'The identity provider did not sign you in, so neither did site-admin.',
  'sso-expired': 'The sign-in took too long or was started in another browser. Start it again.',
  'sso-state': 'The answer from the identity provider does not belong to the sign-in this browser started, so it was refused. Start again.',
  'sso-invalid': 'The answer from the identity provider could not be verified, so it was refused. Start again.',
  'sso-unverified': 'The identity provider has not verified your e-mail address, so it cannot sign you in here.',
  'sso-unknown': 'Your e-mail address at the identity provider is not one of the people who may sign in here. Ask an owner to invite you.',
  'sso-no-grants':
    'Your groups at the identity provider give you no role on any site here. Ask an owner or your identity provider’s administrator.',
  'sso-busy': 'Too many failed sign-ins from here; wait a few minutes, then try again.',
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

export const isSsoErrorCode = (value: unknown): value is SsoErrorCode =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(SSO_ERRORS, value);
