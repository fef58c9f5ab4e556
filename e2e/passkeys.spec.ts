/**
 * Passkeys end to end, in Chromium with its virtual authenticator (the DevTools WebAuthn domain: a
 * platform authenticator with resident keys and user verification), on the `passkeys` project's server:
 * an owner from ADMIN_USER, so signing in is required (playwright.config.ts, E2E.passkeysURL).
 *
 * One story, in order, since each step stands on the one before: a passkey added under Your account,
 * renamed; signing in with it alone; the password then asks for it; removed, it signs nobody in; and
 * where the owners' rule requires a second factor, someone without a passkey adds one to finish signing in.
 */
import { expect, test, type CDPSession, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { E2E } from '../playwright.config';

const OWNER = E2E.passkeysOwner;

test.describe.configure({ mode: 'serial' });

interface VirtualAuthenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

/** A platform authenticator in this page's browser, as a laptop's fingerprint reader would be. */
async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

async function credentialsIn({ cdp, authenticatorId }: VirtualAuthenticator) {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  return credentials;
}

/** The owners' rule, as the People page keeps it in the server's settings: a second factor for everyone, or not. */
function requireSecondFactor(everyone: boolean) {
  const db = new Database(join(E2E.passkeysDataDir ?? '', 'site-admin.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(
      'INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
    ).run('second-factor', JSON.stringify({ everyone, roles: [] }), Date.now());
  } finally {
    db.close();
  }
}

const signedIn = (page: Page) => page.getByRole('button', { name: new RegExp(`^\\w+ ${OWNER.name}, signed in`) });
const signInHeading = (page: Page) => page.getByRole('heading', { name: 'Sign in', level: 1 });
const passkeyRows = (page: Page) => page.getByRole('table', { name: 'Your passkeys' }).getByRole('row');

async function enterPassword(page: Page) {
  await expect(signInHeading(page)).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(OWNER.email);
  await page.getByLabel(/^Password/).fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

async function signOut(page: Page) {
  await signedIn(page).click();
  await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
  await expect(signInHeading(page)).toBeVisible();
}

async function addPasskey(page: Page, name: string) {
  await page.getByRole('textbox', { name: 'Name of the new passkey' }).fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
}

let page: Page;
let authenticator: VirtualAuthenticator;

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ baseURL: E2E.passkeysURL });
  authenticator = await addVirtualAuthenticator(page);
});
test.afterAll(async () => {
  requireSecondFactor(false);
  await page.close();
});

test('the sign-in page offers a passkey; with none on this device, the browser’s refusal is explained', async () => {
  await page.goto('/');
  await expect(signInHeading(page)).toBeVisible();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText('No passkey was used');
  await expect(signInHeading(page)).toBeVisible();
});

test('a passkey is added under Your account with a name, listed, and renamed', async () => {
  await enterPassword(page);
  await expect(signedIn(page)).toBeVisible();
  await signedIn(page).click();
  await page.getByRole('menuitem', { name: /account/i }).click();
  await expect(page.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();

  await addPasskey(page, 'Work laptop');
  await expect(page.getByRole('status')).toContainText('Passkey “Work laptop” added');
  await expect(passkeyRows(page)).toHaveCount(2);
  await expect(passkeyRows(page).nth(1)).toContainText('Work laptop');
  await expect(passkeyRows(page).nth(1)).toContainText('Never');
  const [credential] = await credentialsIn(authenticator);
  expect(credential).toMatchObject({ isResidentCredential: true, rpId: 'localhost' });

  // The same authenticator again: the browser refuses (the server excluded it), and the page says why.
  await addPasskey(page, 'Again');
  await expect(page.getByRole('alert')).toContainText('This device already holds one of your passkeys');
  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(passkeyRows(page)).toHaveCount(2);

  await page.getByRole('button', { name: 'Rename Work laptop' }).click();
  await page.getByRole('textbox', { name: 'New name for Work laptop' }).fill('Laptop');
  await page.getByRole('region', { name: 'Passkeys' }).getByRole('button', { name: 'Save' }).click();
  await expect(passkeyRows(page).nth(1)).toContainText('Laptop');
  await expect(passkeyRows(page).nth(1)).not.toContainText('Work laptop');
});

test('signed out, the passkey alone signs in, with no e-mail address typed', async () => {
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(signedIn(page)).toBeVisible();
  await page.goto('/account');
  await expect(passkeyRows(page).nth(1)).not.toContainText('Never');
  const [credential] = await credentialsIn(authenticator);
  expect(credential?.signCount).toBeGreaterThan(0);
});

test('with a passkey, the right password alone does not sign in: the passkey confirms it', async () => {
  await signOut(page);
  await enterPassword(page);
  await expect(page.getByRole('heading', { name: 'Confirm with your passkey' })).toBeVisible();
  await expect(signedIn(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(signedIn(page)).toBeVisible();
});

test('a removed passkey signs nobody in, though the device still holds it', async () => {
  await page.goto('/account');
  await page.getByRole('button', { name: 'Remove Laptop' }).click();
  await page.getByRole('button', { name: 'Remove Laptop' }).click();
  await expect(page.getByText('You have no passkeys yet.')).toBeVisible();
  expect(await credentialsIn(authenticator)).toHaveLength(1);

  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toContainText('That passkey does not sign anyone in here');
  await expect(signedIn(page)).toHaveCount(0);
});

test('where the owners’ rule requires a second factor, someone with no passkey adds one to finish signing in', async () => {
  requireSecondFactor(true);
  await page.goto('/');
  await enterPassword(page);
  await expect(page.getByRole('heading', { name: 'Add a passkey to finish signing in' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name of the passkey' }).fill('Desk');
  await page.getByRole('button', { name: 'Add a passkey and sign in' }).click();
  await expect(signedIn(page)).toBeVisible();
  await page.goto('/account');
  await expect(passkeyRows(page)).toHaveCount(2);
  await expect(passkeyRows(page).nth(1)).toContainText('Desk');

  // From then on: the password, then that passkey.
  await signOut(page);
  await enterPassword(page);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(signedIn(page)).toBeVisible();
});
