/**
 * The sandbox that `npm start` runs for the end-to-end tests, reached directly (not through the proxy)
 * for its test helpers. Port and key as set in playwright.config.ts and the sandbox's defaults.
 */
import { expect, type APIRequestContext } from '@playwright/test';

export const SANDBOX = {
  origin: `http://127.0.0.1:${process.env.E2E_SANDBOX_PORT ?? 4180}`,
  headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' },
} as const;

/**
 * Adds a case to the sandbox through its test helper; answers the stored record's id. A record given as
 * JSON text is stored as written, numbers digit for digit.
 */
export async function addCase(
  request: APIRequestContext,
  form: string,
  record: Record<string, unknown> | string,
  /** Another server's sandbox (the screenshots have their own). */
  origin: string = SANDBOX.origin,
  /** Another sandbox site (x-site-id) than the first. */
  siteId: string = SANDBOX.headers['x-site-id'],
) {
  const text = typeof record === 'string' ? record : JSON.stringify(record);
  const response = await request.post(`${origin}/__sandbox/cases`, {
    headers: { ...SANDBOX.headers, 'x-site-id': siteId, 'content-type': 'application/json' },
    data: `{"form":${JSON.stringify(form)},"record":${text}}`,
  });
  expect(response.ok()).toBe(true);
  return { id: /"id":"([^"]+)"/.exec(await response.text())?.[1] ?? '' };
}
