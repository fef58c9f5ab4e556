import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblems, send, serveSteps } from '../testing/test-helpers';
import { ACCESS_PATHS } from '../../src/contract/access';
import { createOwnApi, type Endpoint } from '../own-api';
import { refuseUnreadBodies } from './unread-bodies';

const unused: Endpoint['handle'] = () => undefined;
/** A table of our own endpoints: two that only read, one that takes a body. */
const OWN_API = createOwnApi([
  { method: 'GET', path: '/api/sites', handle: unused },
  { method: 'GET', path: '/api/health', public: true, handle: unused },
  { method: 'POST', path: ACCESS_PATHS.signInPassword, public: true, handle: unused },
]);

describe('the refusals of a body nobody reads', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    served = await serveSteps(refuseUnreadBodies(OWN_API));
  });
  afterAll(() => served.close());

  it.each([
    ['a POST to a page', 405, 'POST', '/products/new', 'x'],
    ['a DELETE of a page', 405, 'DELETE', '/', undefined],
    ['a POST to our own API', 404, 'POST', '/api/sites', '{}'],
    ['a PUT to an unknown endpoint', 404, 'PUT', '/api/nope', '{}'],
    ['a PUT to an endpoint that only takes POST', 404, 'PUT', ACCESS_PATHS.signInPassword, '{}'],
    ['a GET of a page with a body', 400, 'GET', '/cases', 'x'],
    ['a GET of our own API with a body', 400, 'GET', '/api/health', 'x'],
  ] as const)('refuses %s (%i) in the error shape', async (_what, status, method, path, body) => {
    const reply = await send(served.port, { method, path, body });
    expect(reply.status).toBe(status);
    expect(errorShapeProblems(status, reply.headers['content-type'], reply.text)).toEqual([]);
    if (status === 405) expect(reply.headers.allow).toBe('GET, HEAD');
  });

  it.each([
    ['a GET of a page', 'GET', '/cases', undefined],
    ['a HEAD of our own API', 'HEAD', '/api/sites', undefined],
    ['a POST to our own endpoint that reads its body', 'POST', ACCESS_PATHS.signInPassword, '{}'],
    ['a create on a site, whose body the proxy reads', 'POST', '/api/s/north/site/v2/ecommerce/products/create', '{}'],
    ['a lookup with a body, which the allowlist judges', 'GET', '/api/site/v2/forms/3/cases/1', 'x'],
  ] as const)('hands on %s', async (_what, method, path, body) => {
    expect((await send(served.port, { method, path, body })).status).toBe(200);
  });
});
