/**
 * Signing in and what each role sees, on the roles' server (the `roles` project: the example profile's
 * two sandbox shops with DEMO_PEOPLE=true, see playwright.config.ts): the stakeholder demo's owner, editor of
 * Harbour Linen and support on both shops, each signed in through the page; refusals by the server whatever
 * the browser sends; the session's cookie and its id; a person disabled mid-session with `npm run people`;
 * and the sessions' idle and absolute time-outs, with the server's clock moved by e2e/support/moved-clock.mjs.
 * The project `roles-postgres` runs the tests tagged @postgres again on a server whose own data is in
 * PostgreSQL.
 */
import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { refusalMessage } from '../src/contract/access';
import { E2E, type RolesServer } from '../playwright.config';

/** The stakeholder demo's people (server/auth/demo-people.ts), as its sign-in page shows them. */
const OWNER = { email: 'olivia@demo.example', password: 'demo owner sees every shop', name: 'Olivia Marsh' };
const EDITOR = { email: 'eddie@demo.example', password: 'demo editor makes products', name: 'Eddie Park' };
const SUPPORT = { email: 'sam@demo.example', password: 'demo support reads cases', name: 'Sam Rivera' };
const SESSION_COOKIE = 'site_admin_session';
const MINUTE = 60_000;

/** The roles' server of this project: its data in SQLite (`roles`) or PostgreSQL (`roles-postgres`). */
const server = () => test.info().project.metadata as RolesServer;

/** `npm run people -- ...` on the roles' server's database, as an operator runs it; its output. */
function people(args: string[], input?: string): string {
  const run = spawnSync('npm', ['run', '--silent', 'people', '--', ...args], {
    input,
    encoding: 'utf8',
    env: {
      ...process.env,
      DATA_DIR: server().dataDir,
      SITE_PROFILE: E2E.sitesProfile,
      DATABASE_URL: server().databaseUrlFile ? readFileSync(server().databaseUrlFile ?? '', 'utf8') : '',
    },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** Moves the roles' server's clock `byMs` further ahead, from its next request on (the file replaced whole, never half-written). */
function moveClock(byMs: number) {
  const file = server().clockFile;
  let offset = 0;
  try {
    offset = Number(readFileSync(file, 'utf8'));
  } catch {
    // Not moved yet.
  }
  writeFileSync(`${file}.next`, String(offset + byMs));
  renameSync(`${file}.next`, file);
}

async function signIn(page: Page, person: { email: string; password: string }, address = '/s/harbour-linen/cases') {
  await page.goto(address);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
  const sitesAsked: string[] = [];
  const onRequest = (request: Request) => {
    if (new URL(request.url()).pathname === '/api/sites') sitesAsked.push(request.url());
  };
  page.on('request', onRequest);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /, signed in: your account and sign-out$/ })).toBeVisible();
  page.off('request', onRequest);
  // The sign-in's answer carries the sites the person may use: the page does not wait on asking for them again.
  expect(sitesAsked).toEqual([]);
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const sessionCookie = async (page: Page) => (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE);

/** Looks up a case: a click that asks the server. */
async function lookUpCase(page: Page) {
  await page.getByRole('textbox', { name: 'Form identifier' }).fill('3');
  await page.getByRole('textbox', { name: 'Case identifier' }).fill('48217');
  await page.getByRole('button', { name: 'Look up case' }).click();
}

/** The products the roles' server's sandbox holds for a site (1001 Harbour Linen, 1002 Summit Outfitters). */
async function storedSlugs(request: APIRequestContext, siteId: string): Promise<string[]> {
  const res = await request.get(`${server().sandboxOrigin}/__sandbox/products?limit=200`, {
    headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': siteId },
  });
  expect(res.ok()).toBe(true);
  const { products } = (await res.json()) as { products: { body: { slug?: string } }[] };
  return products.map((product) => product.body.slug ?? '');
}

/** A product's creation as a script would send it, with the page's cookies and its origin. */
function craftedCreate(page: Page, site: string, slug: string) {
  return page.request.post(`/api/s/${site}/site/v2/ecommerce/products/create`, {
    headers: { origin: server().origin, 'content-type': 'application/json' },
    data: { name: 'Crafted', slug, enabled: 'true' },
  });
}

test('the sign-in page lists the demo people; support signs in and sees look-ups only, on both shops', async ({ page }) => {
  await page.goto('/s/harbour-linen/cases');
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  const demo = page.getByRole('listitem').filter({ hasText: SUPPORT.email });
  await expect(demo).toContainText(`Support on Harbour Linen and Summit Outfitters · password ${SUPPORT.password}`);
  await expect(page.getByRole('listitem').filter({ hasText: OWNER.email })).toContainText(OWNER.password);
  await page.getByRole('button', { name: `Use ${SUPPORT.email}` }).click();
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(
    page.getByRole('button', { name: new RegExp(`^\\w+ ${SUPPORT.name}, signed in: your account and sign-out$`) }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/s\/harbour-linen\/cases$/);
  await expect(nav(page).getByRole('link', { name: /^Cases/ })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: /New product/ })).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: /Import products/ })).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: /^Catalogue/ })).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: /^People/ })).toHaveCount(0);
  await expect(page.getByTestId('demo-mark')).toHaveCount(0);

  // Both shops, and only those, in the switcher.
  await page.getByRole('button', { name: /^Harbour Linen Sandbox, the current site/ }).click();
  await expect(page.getByRole('menuitem')).toHaveText([/Harbour Linen/, /Summit Outfitters/]);
  await page.keyboard.press('Escape');

  // A deep link to a form they may not use says so, and why.
  await page.goto('/s/harbour-linen/products/new');
  await expect(page.getByRole('heading', { level: 1, name: 'You may not create products here' })).toBeVisible();
  await expect(page.getByText(refusalMessage('Harbour Linen', ['lookup'], 'create'))).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveCount(0);
});

test('support’s crafted create, with the page’s cookies, is refused by the server in the spec’s shape and reaches no sandbox', async ({
  page,
  request,
}) => {
  await signIn(page, SUPPORT);
  const slug = `crafted-by-support-${Date.now()}`;
  const refused = await craftedCreate(page, 'harbour-linen', slug);
  expect(refused.status()).toBe(403);
  expect(refused.headers()['x-platform-status']).toBeUndefined();
  expect(await refused.json()).toEqual({
    error: 'Forbidden',
    message: refusalMessage('Harbour Linen', ['lookup'], 'create'),
    code: 403,
  });
  expect(await storedSlugs(request, '1001')).not.toContain(slug);
  expect(await storedSlugs(request, '1002')).not.toContain(slug);
});

test('the editor of Harbour Linen creates a product there; Summit Outfitters is not theirs, by link or by request', async ({
  page,
  request,
}) => {
  await signIn(page, EDITOR, '/s/harbour-linen/products/new');
  // One site: no switcher, and the navigation offers creating.
  await expect(page.getByRole('button', { name: /, the current site: switch site$/ })).toHaveCount(0);
  await expect(nav(page).getByRole('link', { name: /New product/ })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: /Import products/ })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: /^People/ })).toHaveCount(0);

  const slug = `editor-throw-${Date.now()}`;
  await page.getByLabel('Name').fill('Editor’s throw');
  await page.getByLabel('Slug').fill(slug);
  for (let step = 0; step < 4; step += 1) await page.getByRole('button', { name: /^Next:/ }).click();
  await expect(page.getByText('Ready to create')).toBeVisible();
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByText('Product created')).toBeVisible();
  expect(await storedSlugs(request, '1001')).toContain(slug);

  // A deep link to the other shop says plainly it is not one of theirs.
  await page.goto('/s/summit-outfitters/products/new');
  await expect(page.getByRole('heading', { level: 1, name: 'No site “summit-outfitters” that you may use' })).toBeVisible();
  await expect(page.getByText(/ask an owner of site-admin for a role on it/)).toBeVisible();

  const other = `editor-elsewhere-${Date.now()}`;
  const refused = await craftedCreate(page, 'summit-outfitters', other);
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { message: string }).message).toBe(refusalMessage('Summit Outfitters', [], 'create'));
  expect(await storedSlugs(request, '1002')).not.toContain(other);
});

test('the owner sees everything: both shops, creating and importing, and People', async ({ page }) => {
  await signIn(page, OWNER, '/s/summit-outfitters/products/new');
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();
  for (const name of [/^Cases/, /^Catalogue/, /New product/, /Import products/, /Created products/, /^Settings/, /^People/]) {
    await expect(nav(page).getByRole('link', { name })).toBeVisible();
  }
  await page.getByRole('button', { name: /^Summit Outfitters Sandbox, the current site/ }).click();
  await expect(page.getByRole('menuitem')).toHaveText([/Harbour Linen/, /Summit Outfitters/]);
});

test('the session cookie is HttpOnly and SameSite=Lax, and its id is a new one at every sign-in', async ({ page, context }) => {
  // An id chosen before sign-in (planted by someone else, say) never becomes the session.
  await context.addCookies([{ name: SESSION_COOKIE, value: 'chosen-before-sign-in', url: server().origin }]);
  await signIn(page, SUPPORT);
  const first = await sessionCookie(page);
  expect(first).toMatchObject({ httpOnly: true, sameSite: 'Lax', secure: false, path: '/' });
  expect(first?.value).not.toBe('chosen-before-sign-in');
  expect(first?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

  // Signing in again on the same browser: another id, and the first one no longer works.
  await page.request.post('/api/sign-out', { headers: { origin: server().origin } });
  await signIn(page, SUPPORT);
  const second = await sessionCookie(page);
  expect(second?.value).not.toBe(first?.value);
  const stale = await page.request.get('/api/sites', { headers: { cookie: `${SESSION_COOKIE}=${first?.value ?? ''}` } });
  expect(stale.status()).toBe(401);
});

test(
  'a person disabled mid-session with npm run people is out at their next click, on the sign-in page',
  { tag: '@postgres' },
  async ({ page }) => {
    const email = `leaving-${Date.now()}@example.com`;
    const password = 'paper lantern over still water';
    expect(
      people(['add', email, '--name', 'Lee Leaving', '--grant', 'harbour-linen:support', '--password-stdin'], `${password}\n`),
    ).toContain(`Added Lee Leaving <${email}>`);
    await signIn(page, { email, password });
    await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();

    expect(people(['disable', email])).toContain(`Disabled ${email}; 1 session ended.`);
    await lookUpCase(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByText('Your session has ended.')).toBeVisible();
    // And the password no longer signs them in.
    await page.getByRole('textbox', { name: 'E-mail address' }).fill(email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('do not match anyone who may sign in here');
  },
);

test('a session ends after 2 hours without use, each use starting the wait again', async ({ page }) => {
  await signIn(page, SUPPORT);
  // Used just before each 2 hours are up: still signed in.
  for (let hop = 0; hop < 2; hop += 1) {
    moveClock(119 * MINUTE);
    expect((await page.request.get('/api/sites')).status()).toBe(200);
  }
  moveClock(121 * MINUTE);
  await lookUpCase(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Your session has ended.')).toBeVisible();
  // Signing in again carries on where they were.
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(SUPPORT.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(SUPPORT.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
});

test('a session ends 12 hours after sign-in, however recently it was used', async ({ page }) => {
  await signIn(page, SUPPORT);
  // Used every 100 minutes, then 10 minutes before the 12 hours are up: never idle for 2 hours.
  for (const by of [100, 100, 100, 100, 100, 100, 100, 10]) {
    moveClock(by * MINUTE);
    expect((await page.request.get('/api/sites')).status()).toBe(200);
  }
  // 11 minutes after its last use, and 12 hours and 1 minute after sign-in.
  moveClock(11 * MINUTE);
  await lookUpCase(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(page.getByText('Your session has ended.')).toBeVisible();
});
