/**
 * People end to end, on the server with an owner in its database (the `accounts` project): the owner
 * invites a person and copies their one-time link; the person opens it in a browser of their own, chooses
 * a password and is signed in; the owner changes their roles, then disables them while they are still
 * signed in, and their next click lands on the sign-in page. Then Your account and People are looked at
 * in both colour schemes at a desktop's and a phone's width (PNGs among the test artefacts), and scanned
 * with axe.
 */
import { expect, test, type Page } from '@playwright/test';
import { E2E } from '../playwright.config';
import { expectNoA11yViolations } from './a11y';

const INVITEE = { email: 'pat.rivers@example.com', name: 'Pat Rivers', password: 'velvet quarry lantern orchard' };

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /, signed in: your account and sign-out$/ })).toBeVisible();
}

/**
 * Signs the owner in as the sign-in page does (the same request), without the page: the first test goes
 * through the page itself. The session cookie lands in the page's browser context.
 */
async function signInOwner(page: Page) {
  const answer = await page.context().request.post(`${E2E.accountsURL}/api/sign-in/password`, {
    data: { email: E2E.owner.email, password: E2E.owner.password },
    headers: { origin: E2E.accountsURL },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

async function openMenuItem(page: Page, item: string) {
  await page.getByRole('button', { name: /, signed in: your account and sign-out$/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('an owner invites a person, sets their roles and disables them mid-session', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page, E2E.owner.email, E2E.owner.password);
  await openMenuItem(page, 'People');
  await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();

  // Invite, with a role on one site, and copy the link shown once.
  await page.getByRole('button', { name: 'Invite a person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a person' });
  await dialog.getByRole('button', { name: 'Invite and make a link' }).click();
  await expect(dialog.getByText('must be an e-mail address')).toBeVisible();
  await dialog.getByLabel('E-mail address').fill(INVITEE.email);
  await dialog.getByLabel('Name').fill(INVITEE.name);
  await dialog.getByRole('radio', { name: 'Editor on Harbour Linen' }).check();
  await dialog.getByRole('button', { name: 'Invite and make a link' }).click();
  await expect(dialog).toBeHidden();
  const invitation = page.getByRole('status').filter({ hasText: `Invitation for ${INVITEE.name}` });
  await invitation.getByRole('button', { name: 'Copy link' }).click();
  await expect(invitation.getByRole('button', { name: 'Copied' })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(await invitation.getByLabel('One-time link').inputValue());
  expect(new URL(link).pathname).toBe('/invite');
  const card = page.getByRole('listitem', { name: INVITEE.name });
  await expect(card.getByText('Invited')).toBeVisible();
  await expect(card.getByText('Editor on Harbour Linen')).toBeVisible();

  // The invitee, in a browser of their own, chooses a password: the server's rules, then signed in.
  const theirs = await browser.newContext();
  const invitee = await theirs.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: `Welcome, ${INVITEE.name}` })).toBeVisible();
  const password = invitee.getByLabel('Choose a password');
  await password.fill('password123');
  await expect(invitee.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', /Very weak|Weak/);
  await invitee.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(invitee.getByText(/Use at least 15 characters/)).toBeVisible();
  await password.fill(INVITEE.password);
  await expect(invitee.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', /^(Strong|Very strong)$/);
  await invitee.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(
    invitee.getByRole('button', { name: new RegExp(`^\\w+ ${INVITEE.name}, signed in: your account and sign-out$`) }),
  ).toBeVisible();
  // Their one site: the short addresses.
  await expect(invitee).toHaveURL(/\/cases$/);
  await expect(invitee.getByRole('link', { name: 'New product' })).toBeVisible();
  // The link is used up.
  const again = await theirs.newPage();
  await again.goto(link);
  await expect(again.getByText(/used already/)).toBeVisible();
  await again.close();

  // The owner makes them support only: at their next page load they may no longer create products.
  await page.reload();
  await expect(card.getByText('Active')).toBeVisible();
  await card.getByRole('button', { name: `Change roles of ${INVITEE.name}` }).click();
  const roles = page.getByRole('dialog', { name: `Roles of ${INVITEE.name}` });
  await roles.getByRole('radio', { name: 'Support on Harbour Linen' }).check();
  await roles.getByRole('radio', { name: 'Support on Summit Outfitters' }).check();
  await roles.getByRole('button', { name: 'Save roles' }).click();
  await expect(roles).toBeHidden();
  await expect(card.getByText('Support on Summit Outfitters')).toBeVisible();
  await invitee.reload();
  await expect(invitee.getByRole('heading', { name: 'Cases', level: 1 })).toBeVisible();
  await expect(invitee.getByRole('link', { name: 'New product' })).toHaveCount(0);

  // Their account lists this browser.
  await openMenuItem(invitee, 'Your account');
  await expect(invitee.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await expect(invitee.getByRole('listitem', { name: /\(this browser\)$/ })).toBeVisible();
  await expect(invitee.getByText('Support on Harbour Linen')).toBeVisible();

  // Disabled while signed in: their next click that asks the server lands on the sign-in page.
  await card.getByRole('button', { name: `More for ${INVITEE.name}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  await expect(card.getByRole('status')).toHaveText(/is disabled/);
  await expect(card.getByText('Disabled', { exact: true })).toBeVisible();
  await invitee.getByRole('textbox', { name: 'Name', exact: true }).fill('Pat R.');
  await invitee.getByRole('button', { name: 'Save name' }).click();
  await expect(invitee.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(invitee.getByText('Your session has ended')).toBeVisible();
  // And they cannot sign in again.
  await invitee.getByLabel('E-mail address').fill(INVITEE.email);
  await invitee.getByRole('textbox', { name: 'Password', exact: true }).fill(INVITEE.password);
  await invitee.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(invitee.getByRole('alert')).toContainText('do not match anyone who may sign in');
  await theirs.close();
});

test('a person who is not an owner is told plainly that People is not for them', async ({ page, browser }) => {
  // An owner invites a support person; they open People by its address.
  await signInOwner(page);
  await page.goto('/');
  await expect(page.getByRole('button', { name: /, signed in: your account and sign-out$/ })).toBeVisible();
  const invited = await page.evaluate(async () => {
    const answer = await fetch('/api/people', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: 'sky.support@example.com',
        displayName: 'Sky Support',
        grants: [{ siteId: 'harbour-linen', role: 'support' }],
      }),
    });
    return (await answer.json()) as { link: { url: string } };
  });
  const theirs = await browser.newContext();
  const support = await theirs.newPage();
  await support.goto(invited.link.url);
  await support.getByLabel('Choose a password').fill('copper kettle summer meadow');
  await support.getByRole('button', { name: 'Save password and sign in' }).click();
  await expect(support.getByRole('button', { name: /^SS Sky Support, signed in/ })).toBeVisible();
  await support.goto('/s/harbour-linen/people');
  await expect(support.getByRole('heading', { name: 'You may not manage people' })).toBeVisible();
  await support.getByRole('button', { name: /, signed in: your account and sign-out$/ }).click();
  await expect(support.getByRole('menuitem', { name: 'People' })).toHaveCount(0);
  await theirs.close();
});

const SIZES = [
  { name: 'desktop', viewport: { width: 1440, height: 900 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

for (const size of SIZES) {
  for (const scheme of ['light', 'dark'] as const) {
    test(`Your account, People and an invitation at the ${size.name}'s width, ${scheme}`, async ({ browser }, testInfo) => {
      const context = await browser.newContext({
        viewport: size.viewport,
        isMobile: size.isMobile,
        hasTouch: size.isMobile,
        colorScheme: scheme,
      });
      const page = await context.newPage();
      await signInOwner(page);
      for (const [path, heading] of [
        ['/s/harbour-linen/account', 'Your account'],
        ['/s/harbour-linen/people', 'People'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
        await expect(page.getByRole('meter', { name: 'Password strength' }).or(page.getByRole('listitem').first()).first()).toBeVisible();
        // Nothing makes the page scroll sideways.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        const file = testInfo.outputPath(`${heading.toLowerCase().replace(/\s+/g, '-')}-${size.name}-${scheme}.png`);
        await page.screenshot({ path: file, fullPage: true });
        await testInfo.attach(`${heading} ${size.name} ${scheme}`, { path: file, contentType: 'image/png' });
        await expectNoA11yViolations(page, { screen: `${heading} (${size.name}, ${scheme})` });
      }
      // The page a one-time link opens, for someone not signed in.
      const invitation = await page.evaluate(async (email) => {
        const answer = await fetch('/api/people', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, displayName: 'Robin Example', grants: [{ siteId: 'summit-outfitters', role: 'editor' }] }),
        });
        return (await answer.json()) as { link: { url: string } };
      }, `robin.${size.name}.${scheme}@example.com`);
      const fresh = await browser.newContext({
        viewport: size.viewport,
        isMobile: size.isMobile,
        hasTouch: size.isMobile,
        colorScheme: scheme,
      });
      const invitePage = await fresh.newPage();
      await invitePage.goto(invitation.link.url);
      await invitePage.getByLabel('Choose a password').fill('sparrow');
      await expect(invitePage.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', /^(Very weak|Weak)$/);
      expect(await invitePage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      const file = testInfo.outputPath(`invitation-${size.name}-${scheme}.png`);
      await invitePage.screenshot({ path: file, fullPage: true });
      await testInfo.attach(`Invitation ${size.name} ${scheme}`, { path: file, contentType: 'image/png' });
      await expectNoA11yViolations(invitePage, { screen: `Invitation (${size.name}, ${scheme})` });
      await fresh.close();
      await context.close();
    });
  }
}
