/**
 * What signing in costs the browser: what the sign-in page downloads (its JS and CSS) and what the first
 * page after signing in adds, as Chromium fetched them. What a session's check costs the server per
 * lookup is measured in the deployed comparison (bench/deployed.ts: deployed against the local demo),
 * which signs in with what is here.
 */
import type { Browser, Page } from '@playwright/test';
import { newBenchContext } from './browser';
import { assetSet, type AssetSet } from './bundle';
import { startServer } from './server-process';

const ADMIN = { user: 'bench@example.com', password: 'the sessions section signs in with this passphrase' };
/** A server's settings for an owner of every site who signs in with ADMIN: someone must sign in. */
export const SIGNED_IN = { ADMIN_USER: ADMIN.user, ADMIN_PASSWORD: ADMIN.password } as const;

export interface SignInPageFigures {
  page: AssetSet;
  firstPageAfter: AssetSet;
}

/** Signs ADMIN in on the server at origin; answers the Cookie header's value that carries the session. */
export async function signInCookie(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/sign-in/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: ADMIN.user, password: ADMIN.password }),
  });
  if (res.status !== 200) throw new Error(`Signing in for the bench answered ${res.status}: ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((line) => line.startsWith('site_admin_session='));
  if (!cookie) throw new Error('Signing in for the bench set no session cookie.');
  return cookie.split(';')[0] ?? '';
}

/** Collects the /assets/ files the page fetches from now on. */
function recordAssets(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/assets/')) seen.add(path.slice(1));
  });
  return seen;
}

/** The sign-in page's downloads on a server where someone must sign in, then what the first page adds. */
export async function runSignInPageBenchmark(browser: Browser, distDir: string): Promise<SignInPageFigures> {
  const server = await startServer({ DIST_DIR: distDir, ...SIGNED_IN });
  try {
    const context = await newBenchContext(browser, server.origin);
    try {
      const page = await context.newPage();
      const fetched = recordAssets(page);
      await page.goto('/cases', { waitUntil: 'networkidle' });
      await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      const signIn = new Set(fetched);
      await page.getByRole('textbox', { name: 'E-mail address' }).fill(ADMIN.user);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
      await page.waitForLoadState('networkidle');
      const after = [...fetched].filter((file) => !signIn.has(file));
      return { page: assetSet(distDir, signIn), firstPageAfter: assetSet(distDir, after) };
    } finally {
      await context.close();
    }
  } finally {
    await server.stop();
  }
}
