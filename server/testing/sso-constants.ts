/** The client the single sign-on's tests register at their OpenID provider (sso-provider.ts), and give the server. */
export const TEST_CLIENT = { clientId: 'site-admin', clientSecret: 'a-client-secret-for-the-tests-only' } as const;
/** A public client of the same provider: PKCE alone, no secret. */
export const TEST_PUBLIC_CLIENT_ID = 'site-admin-public';
