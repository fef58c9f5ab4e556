import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblems, send, serveSteps } from '../testing/test-helpers';
import type { ResolvedSite } from './context';
import { resolveSite } from './site-resolution';

const site = (id: string): [string, ResolvedSite] => [id, { id, forward: () => undefined }];

describe('site resolution on a server of several sites', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    served = await serveSteps(resolveSite(new Map([site('north'), site('north-2')])));
  });
  afterAll(() => served.close());

  it.each([
    ['/api/s/north/site/v2/forms/3/cases/1', 'north'],
    ['/api/s/north-2/site/v2/ecommerce/products/create?site=north', 'north-2'],
    ['/api/s/north/site/v2', 'north'],
    ['/api/s/north/site/v2/anything', 'north'],
  ])('finds the site of %s', async (path, id) => {
    expect(JSON.parse((await send(served.port, { path })).text)).toMatchObject({ passed: true, site: id });
  });

  it.each([
    ['/api/s/west/site/v2/forms/3/cases/1', 'No site called "west" is configured on this server.'],
    ['/api/s/nor%74h/site/v2/forms/3/cases/1', 'No site called "nor%74h" is configured on this server.'],
    ['/api/s/__proto__/site/v2/forms/3/cases/1', 'No site called "__proto__" is configured on this server.'],
    [`/api/s/${'x'.repeat(100)}/site/v2`, `No site called "${'x'.repeat(64)}…" is configured on this server.`],
    ['/api/s/', 'The address names no site: write /api/s/{site}/site/v2/... with a site of /api/sites.'],
    ['/api/s/north/meta', 'GET /api/s/north/meta is not an endpoint of this server.'],
    [
      '/api/site/v2/forms/3/cases/1',
      'This server works on 2 sites, so the address must name one: /api/s/{site}/site/v2/... with a site of /api/sites.',
    ],
  ])('answers %s with 404, saying why', async (path, message) => {
    const reply = await send(served.port, { path });
    expect(reply.status).toBe(404);
    expect(errorShapeProblems(404, reply.headers['content-type'], reply.text)).toEqual([]);
    expect(JSON.parse(reply.text)).toMatchObject({ message });
  });

  it('hands on what is no site’s address, naming no site', async () => {
    for (const path of ['/', '/api/sites', '/api/s-other']) {
      const learnt = JSON.parse((await send(served.port, { path })).text) as Record<string, unknown>;
      expect(learnt.passed, path).toBe(true);
      expect(learnt.site, path).toBeUndefined();
    }
  });
});

describe('site resolution on a server of one site', () => {
  it('sends the short address and the site’s own address to it', async () => {
    const served = await serveSteps(resolveSite(new Map([site('only')])));
    try {
      for (const path of ['/api/site/v2/forms/3/cases/1', '/api/s/only/site/v2/forms/3/cases/1']) {
        expect(JSON.parse((await send(served.port, { path })).text)).toMatchObject({ site: 'only' });
      }
      expect((await send(served.port, { path: '/api/s/main/site/v2/forms/3/cases/1' })).status).toBe(404);
    } finally {
      await served.close();
    }
  });
});
