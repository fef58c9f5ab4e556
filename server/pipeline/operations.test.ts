import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblems, send, serveSteps, waitFor } from '../testing/test-helpers';
import type { Step } from './context';
import { allowOperation, matchRoute } from './operations';

describe('matchRoute', () => {
  it.each([
    ['GET', '/forms/3/cases/48217', { name: 'get-form-case', method: 'GET', upstreamPath: '/forms/3/cases/48217' }],
    ['GET', '/forms/a_b/cases/X-1', { name: 'get-form-case', method: 'GET', upstreamPath: '/forms/a_b/cases/X-1' }],
    ['POST', '/ecommerce/products/create', { name: 'create-product', method: 'POST', upstreamPath: '/ecommerce/products/create' }],
  ])('admits %s %s', (method, path, operation) => {
    expect(matchRoute(method, path)).toEqual(operation);
  });

  it.each([
    ['POST', '/forms/3/cases/1'],
    ['GET', '/ecommerce/products/create'],
    ['GET', '/forms/3/cases/1/'],
    ['GET', '/forms/%2e%2e/cases/1'],
    ['GET', '/forms/a%2Fb/cases/1'],
    ['GET', '/forms/%ZZ/cases/1'],
    ['GET', '/users/me'],
    ['GET', ''],
  ])('does not know %s %s', (method, path) => {
    expect(matchRoute(method, path)).toBeNull();
  });

  it('refuses a lookup whose identifiers the contract rejects, with the rule’s details', () => {
    expect(matchRoute('GET', '/forms/a.b/cases/1')).toEqual({ refused: [expect.objectContaining({ field: 'form' })] });
  });
});

describe('the operation allowlist', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    served = await serveSteps(allowOperation(1024));
  });
  afterAll(() => served.close());

  it('hands on the two operations, saying which', async () => {
    const lookup = JSON.parse((await send(served.port, { path: '/api/site/v2/forms/3/cases/1' })).text) as Record<string, unknown>;
    expect(lookup).toMatchObject({ operationName: 'get-form-case', operation: { upstreamPath: '/forms/3/cases/1' } });
    const create = await send(served.port, { method: 'POST', path: '/api/s/x/site/v2/ecommerce/products/create', body: '{}' });
    expect(JSON.parse(create.text)).toMatchObject({ operationName: 'create-product' });
  });

  it.each([
    ['an unknown operation', 'GET', '/api/site/v2/users/me', undefined, {}, 404],
    ['the base itself', 'GET', '/api/site/v2', undefined, {}, 404],
    ['an identifier the contract rejects', 'GET', '/api/site/v2/forms/a.b/cases/1', undefined, {}, 422],
    ['a lookup with a body', 'GET', '/api/site/v2/forms/3/cases/1', 'x', {}, 400],
    ['a create declaring more than the limit', 'POST', '/api/site/v2/ecommerce/products/create', 'x'.repeat(1025), {}, 413],
  ] as const)('refuses %s (%i) in the error shape', async (_what, method, path, body, headers, status) => {
    const reply = await send(served.port, { method, path, body, headers });
    expect(reply.status).toBe(status);
    expect(errorShapeProblems(status, reply.headers['content-type'], reply.text)).toEqual([]);
  });

  it('leaves pages and our own API alone', async () => {
    expect((await send(served.port, { path: '/api/sites' })).status).toBe(200);
  });
});

describe('the operation allowlist after a step that waits (a session looked up in the database)', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    // Hands the request on only once its small body has arrived whole, unread, as a slow look-up would.
    const waitsForTheBody: Step = ({ req }, next) => {
      void waitFor(() => req.complete, { timeoutMs: 5_000, intervalMs: 5, what: 'the body to arrive' }).then(next);
    };
    served = await serveSteps(waitsForTheBody, allowOperation(1024));
  });
  afterAll(() => served.close());

  it('still refuses a lookup with a body (400)', async () => {
    const reply = await send(served.port, { path: '/api/site/v2/forms/3/cases/1', body: 'x' });
    expect(reply.status).toBe(400);
    expect(errorShapeProblems(400, reply.headers['content-type'], reply.text)).toEqual([]);
  });
});
