/**
 * The server of several sites (the `sites` project: SITE_PROFILE=server/site-profile.example.json, see
 * playwright.config.ts, whose E2E.sitesURL is this project's baseURL).
 */
import { expect, test } from '@playwright/test';

test('the server lists both sites of the example profile, without any key', async ({ request }) => {
  const res = await request.get('/api/sites');
  expect(res.status()).toBe(200);
  const text = await res.text();
  const { sites } = JSON.parse(text) as { sites: { id: string; name: string; mode: string; siteId: string }[] };
  expect(sites.map(({ id, name, mode, siteId }) => ({ id, name, mode, siteId }))).toEqual([
    { id: 'harbour-linen', name: 'Harbour Linen', mode: 'sandbox', siteId: '1001' },
    { id: 'summit-outfitters', name: 'Summit Outfitters', mode: 'sandbox', siteId: '1002' },
  ]);
  expect(text).not.toContain('sandbox-local-key');
  expect(text).not.toContain('apiKeyEnv');
});
