/**
 * A real OpenID provider for the single sign-on's tests (oidc-provider), on loopback: a confidential
 * client and a public one, PKCE required, and the people the test gives it, each with an e-mail address, whether the
 * provider has verified it, and groups. Its development sign-in form takes any password for a person's
 * login name; consent is given at once (the client is first-party), so a sign-in is: the authorisation
 * request, the form, and the redirect back with the code.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';
import { TEST_CLIENT, TEST_PUBLIC_CLIENT_ID } from './sso-constants';

export { TEST_CLIENT, TEST_PUBLIC_CLIENT_ID } from './sso-constants';

export interface ProviderPerson {
  email: string;
  emailVerified: boolean;
  groups?: string[];
}

export interface TestIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people who may sign in at the provider, by login name: change it while the provider runs. */
  people: Map<string, ProviderPerson>;
  close(): Promise<void>;
}

export async function startIdentityProvider(options: { port?: number; redirectUris: string[] }): Promise<TestIdentityProvider> {
  const people = new Map<string, ProviderPerson>();
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.clientId,
        client_secret: TEST_CLIENT.clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
      {
        client_id: TEST_PUBLIC_CLIENT_ID,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'none',
      },
    ],
    pkce: { required: () => true },
    scopes: ['openid', 'email', 'profile', 'groups'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    cookies: { keys: ['a-cookie-key-for-the-tests-only'] },
    features: { devInteractions: { enabled: true } },
    findAccount: (_ctx: KoaContextWithOIDC, id: string) => {
      const person = people.get(id);
      if (!person) return undefined;
      return {
        accountId: id,
        claims: () => ({ sub: id, email: person.email, email_verified: person.emailVerified, name: id, groups: person.groups ?? [] }),
      };
    },
    // First-party: every scope asked for is granted without a consent screen.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const { oidc } = ctx;
      const grant = new oidc.provider.Grant({ clientId: oidc.client?.clientId, accountId: oidc.session?.accountId });
      grant.addOIDCScope(String(oidc.params?.scope ?? 'openid'));
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    ...TEST_CLIENT,
    people,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
