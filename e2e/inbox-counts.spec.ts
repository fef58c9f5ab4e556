/**
 * The navigation's count of new cases, on the roles' server (the `roles` project,
 * INBOX_POLL_SECONDS=5, see playwright.config.ts): two people of Summit Outfitters have the console open;
 * a case arrives on the platform (the sandbox's POST /__sandbox/cases) and each one's badge beside Cases
 * counts it after the server's next reading, without a reload. On the SQLite server only: what the page does
 * is the same on either engine, and the readings shared through the database (one per interval for several
 * people, and for two instances on one PostgreSQL) and the counts are proven on both engines in
 * server/inbox/inbox-poll.test.ts.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { inboxCountsPath, readInboxCounts } from '../src/contract/inbox-counts';
import type { RolesServer } from '../playwright.config';
import { addCase } from './sandbox';

/** The stakeholder demo's people (server/auth/demo-people.ts). */
const OWNER = { email: 'olivia@demo.example', password: 'demo owner sees every shop', name: 'Olivia Marsh' };
const EDITOR = { email: 'eddie@demo.example', password: 'demo editor makes products', name: 'Eddie Park' };
const SUPPORT = { email: 'sam@demo.example', password: 'demo support reads cases', name: 'Sam Rivera' };
const SITE = 'summit-outfitters';

const server = () => test.info().project.metadata as RolesServer;

/** How far the roles' server's clock runs ahead (e2e/support/moved-clock.mjs), in ms. */
function clockOffset(): number {
  try {
    return Number(readFileSync(server().clockFile, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

async function signedIn(
  browser: Browser,
  person: { email: string; password: string; name: string },
  path = `/s/${SITE}/cases`,
): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: server().origin })).newPage();
  await page.goto(path);
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: new RegExp(`^\\w+ ${person.name}, signed in: your account and sign-out$`) })).toBeVisible();
  return page;
}

/** The person's new cases on the site once the server has read its forms: what the badge starts from. */
async function newSoFar(page: Page): Promise<number> {
  let total = -1;
  await expect
    .poll(
      async () => {
        const counts = readInboxCounts(await (await page.request.get(inboxCountsPath(SITE))).json());
        if (!counts || counts.readAt === null) return false;
        total = Object.values(counts.forms).reduce((sum, count) => sum + count.new, 0);
        return true;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return total;
}

const casesLink = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Cases\b/ });

test('a case that arrives shows in each person’s count beside Cases after the next reading', async ({ browser }) => {
  const sam = await signedIn(browser, SUPPORT);
  const olivia = await signedIn(browser, OWNER);
  const before = { sam: await newSoFar(sam), olivia: await newSoFar(olivia) };
  // The badge must be able to show one more.
  expect(Math.max(before.sam, before.olivia), 'the demo shop has too many new cases for this test').toBeLessThan(99);
  for (const [page, count] of [
    [sam, before.sam],
    [olivia, before.olivia],
  ] as const) {
    if (count > 0) await expect(casesLink(page)).toHaveAccessibleName(new RegExp(`^Cases, ${count} new`));
    else await expect(page.getByTestId('new-cases')).toHaveCount(0);
  }

  // Received now by the server's clock (which the roles' tests may have moved ahead): new to both of them.
  const serverNow = Date.now() + clockOffset();
  await addCase(
    sam.request,
    '12',
    { name: 'form_12', form_name: 'Summit registration', created_at: Math.floor(serverNow / 1000), properties: { name: 'Arrives now' } },
    server().sandboxOrigin,
    '1002',
  );

  // No reload: the page asks again at the server's pace while it is visible.
  await expect(sam.getByTestId('new-cases')).toHaveText(String(before.sam + 1), { timeout: 30_000 });
  await expect(casesLink(sam)).toHaveAccessibleName(new RegExp(`^Cases, ${before.sam + 1} new`));
  await expect(olivia.getByTestId('new-cases')).toHaveText(String(before.olivia + 1), { timeout: 30_000 });
  await sam.context().close();
  await olivia.context().close();
});

/** How many list requests of Harbour Linen's warranty claims (form 21, site 1001) the roles' sandbox has answered. */
async function listRequests(page: Page): Promise<number> {
  const answer = await page.request.get(`${server().sandboxOrigin}/__sandbox/list-requests?form=21`, {
    headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' },
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { requests: number }).requests;
}

/** When the server last read the site's lists, as the counts say (null before its first reading). */
async function readAt(page: Page): Promise<number | null> {
  return readInboxCounts(await (await page.request.get(inboxCountsPath('harbour-linen'))).json())?.readAt ?? null;
}

test('three people with the warranty claims’ inbox open cost the platform one reading per interval, not one each', async ({ browser }) => {
  const inbox = '/s/harbour-linen/cases/21';
  const pages = await Promise.all([OWNER, EDITOR, SUPPORT].map((person) => signedIn(browser, person, inbox)));
  for (const page of pages) await expect(page.getByText(/cases, newest first/).first()).toBeVisible();
  // Each person's own page of the list was read as they opened it; from here on only the server reads it.
  const asked = pages.map(() => 0);
  pages.forEach((page, index) =>
    page.on('request', (request) => {
      if (request.url().endsWith(inboxCountsPath('harbour-linen'))) asked[index] = (asked[index] ?? 0) + 1;
    }),
  );
  await expect.poll(() => readAt(pages[0]!), { timeout: 20_000 }).not.toBeNull();
  const start = { requests: await listRequests(pages[0]!), readAt: (await readAt(pages[0]!)) ?? 0 };
  // Three further readings by the server (one per INBOX_POLL_SECONDS = 5 s), while every page keeps asking for its counts.
  let last = start.readAt;
  for (let reading = 0; reading < 3; reading += 1) {
    await expect.poll(async () => ((await readAt(pages[0]!)) ?? 0) > last, { timeout: 20_000 }).toBe(true);
    last = (await readAt(pages[0]!)) ?? last;
  }
  const readings = (await listRequests(pages[0]!)) - start.requests;
  // One list request per reading: three, or four when one more began as the last was asked about.
  expect(readings).toBeGreaterThanOrEqual(3);
  expect(readings).toBeLessThanOrEqual(4);
  // ... while each of the three pages asked site-admin (never the platform) for its counts.
  for (const count of asked) expect(count).toBeGreaterThanOrEqual(2);
  for (const page of pages) await page.context().close();
});
