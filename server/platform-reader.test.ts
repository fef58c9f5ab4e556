/**
 * The server's own reads of a site's platform, against the built-in sandbox: a page of a form's cases in
 * the profile's envelope, the platform's 404 as "no cases", a failure when the answer is another envelope,
 * and a failure (never a throw) when the platform cannot be reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseIdOf } from '../src/contract/case-list-items';
import { createPlatformReader } from './platform-reader';
import { startSandboxedSite } from './testing/test-helpers';

describe('the server’s own reads of a site’s platform', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-platform-reader-');
  });
  afterAll(() => running.stop());

  const reader = () => {
    const [site] = running.site.sites;
    const own = site && running.site.platformReaders.get(site.id);
    if (!own) throw new Error('the server has no reader of its site');
    return own;
  };

  it('reads a page of a form’s cases in the site’s envelope, newest first', async () => {
    const page = await reader().caseList('21', { per_page: 25, page: 1, sort_type: 'created_at', sort_order: 'desc' });
    if (page.kind !== 'page') throw new Error(`no page: ${JSON.stringify(page)}`);
    expect(page.content).toMatchObject({ total: 340, page: 1, perPage: 25 });
    expect(page.content.items).toHaveLength(25);
    const times = page.content.items.map((item) => Number(item.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('keeps a number beyond 2^53 digit for digit (an id as much as a field), as the record and the browser read it', async () => {
    const sandbox = running.site.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    const added = await fetch(new URL('/__sandbox/cases', sandbox.baseUrl), {
      method: 'POST',
      headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001', 'content-type': 'application/json' },
      body: '{"form":"88","record":{"name":"form_88","created_at":1790000000,"properties":{"serial":12345678901234567890}}}',
    });
    expect(added.ok).toBe(true);
    const page = await reader().caseList('88', {});
    if (page.kind !== 'page') throw new Error(`no page: ${JSON.stringify(page)}`);
    // A number JSON.parse would round (to 12345678901234567000) is kept as its digits: an id as much as this.
    expect(page.content.items[0]?.properties).toEqual({ serial: '12345678901234567890' });
    expect(page.content.items.map(caseIdOf)).toEqual([expect.stringMatching(/^\d+$/)]);
  });

  it('reads the platform’s 404 as a form without cases', async () => {
    expect(await reader().caseList('99', {})).toEqual({ kind: 'empty' });
  });

  it('says so when the answer is not the envelope the profile names', async () => {
    const sandbox = running.site.sandbox;
    if (!sandbox) throw new Error('no sandbox');
    const other = createPlatformReader({
      upstream: sandbox.baseUrl,
      apiKey: 'sandbox-local-key',
      siteId: '1001',
      timeoutMs: 5000,
      envelope: 'data-meta',
    });
    const page = await other.caseList('21', { per_page: 1 });
    expect(page).toMatchObject({ kind: 'failed', status: 200 });
    expect(page.kind === 'failed' && page.reason).toContain('"data-meta"');
  });

  it('fails, without throwing, when the platform cannot be reached', async () => {
    const nowhere = createPlatformReader({
      upstream: new URL('http://127.0.0.1:9/api/site/v2'),
      apiKey: 'k',
      siteId: '1',
      timeoutMs: 2000,
    });
    expect(await nowhere.caseList('21', {})).toMatchObject({ kind: 'failed', status: null });
  });
});
