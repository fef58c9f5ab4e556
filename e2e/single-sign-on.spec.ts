/**
 * Single sign-on in Chromium (the `single-sign-on` project: a server with SSO_* settings and an owner,
 * see playwright.config.ts), against a real OpenID provider that this file starts on loopback at the
 * server's SSO_ISSUER. The provider's development sign-in form takes any password for a known login name.
 */
import { expect, test, type Page } from '@playwright/test';
import { SSO_ERRORS, SSO_START_PATH } from '../src/contract/single-sign-on';
import { E2E } from '../playwright.config';
import { startIdentityProvider, type TestIdentityProvider } from '../server/testing/sso-provider';

let provider: TestIdentityProvider;

test.beforeAll(async () => {
  provider = await startIdentityProvider({
    port: E2E.ssoProviderPort,
    redirectUris: [`${E2E.ssoURL}/api/sign-in/sso/callback`],
  });
  provider.people.set('owner', { email: E2E.ssoOwner.toUpperCase(), emailVerified: true });
  provider.people.set('stranger', { email: 'stranger@example.com', emailVerified: true });
  provider.people.set('unverified', { email: E2E.ssoOwner, emailVerified: false });
});

test.afterAll(async () => {
  await provider?.close();
});

/** From the sign-in page, through the provider's sign-in form as `login`, back to site-admin. */
async function signInAt(page: Page, login: string) {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in with Example ID' }).click();
  await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

/**
 * Has the provider's authorisation request go out with `name` changed to `value`, as an attacker's link
 * might: the start endpoint's redirect is rewritten on its way to the browser (a route sees no request
 * that a redirect made, so the redirect itself is changed).
 */
async function tamperWith(page: Page, name: 'state' | 'nonce', value: string) {
  await page.route(`${E2E.ssoURL}${SSO_START_PATH}`, async (route) => {
    const response = await route.fetch({ maxRedirects: 0 });
    const location = new URL(response.headers().location ?? '');
    expect(location.origin).toBe(provider.issuer);
    location.searchParams.set(name, value);
    await route.fulfill({ response, headers: { ...response.headers(), location: location.href } });
  });
}

test('a person invited here signs in with the identity provider and lands in the console', async ({ page }) => {
  await signInAt(page, 'owner');
  await expect(page.getByRole('button', { name: /^O owner, signed in/ })).toBeVisible();
  expect(page.url().startsWith(`${E2E.ssoURL}/`)).toBe(true);
  const sites = await page.request.get('/api/sites');
  expect(sites.status()).toBe(200);
  expect(((await sites.json()) as { me: { email: string } }).me.email).toBe(E2E.ssoOwner);
  // Neither the session's nor the sign-in step's cookie is readable by the page.
  expect(await page.evaluate(() => document.cookie)).toBe('');
});

test('an address that is not one of ours is refused, in words, and nobody is signed in', async ({ page }) => {
  await signInAt(page, 'stranger');
  await expect(page.getByRole('alert')).toHaveText(new RegExp(SSO_ERRORS['sso-unknown'].slice(0, 40)));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // The words are read once: the address no longer carries them.
  await expect(page).not.toHaveURL(/sign-in-error/);
  expect((await page.request.get('/api/sites')).status()).toBe(401);
});

test('an address the provider has not verified is refused', async ({ page }) => {
  await signInAt(page, 'unverified');
  await expect(page.getByRole('alert')).toContainText(SSO_ERRORS['sso-unverified']);
  expect((await page.request.get('/api/sites')).status()).toBe(401);
});

test('an answer with a forged state is refused', async ({ page }) => {
  await tamperWith(page, 'state', 'forged-by-another-page');
  await signInAt(page, 'owner');
  await expect(page.getByRole('alert')).toContainText(SSO_ERRORS['sso-state']);
  expect((await page.request.get('/api/sites')).status()).toBe(401);
});

test('an ID token with a wrong nonce is refused', async ({ page }) => {
  await tamperWith(page, 'nonce', 'a-nonce-this-sign-in-never-sent');
  await signInAt(page, 'owner');
  await expect(page.getByRole('alert')).toContainText(SSO_ERRORS['sso-invalid']);
  expect((await page.request.get('/api/sites')).status()).toBe(401);
});
