import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { addressOf, parseRequest, runSteps, type RequestContext, type Step } from './context';

describe('addressOf', () => {
  it.each([
    [
      '/api/s/north/site/v2/forms/3/cases/1',
      { kind: 'site', site: 'north', base: '/api/s/north/site/v2', operationPath: '/forms/3/cases/1' },
    ],
    ['/api/s/north/site/v2', { kind: 'site', site: 'north', base: '/api/s/north/site/v2', operationPath: '' }],
    ['/api/s/north/site/v2x', { kind: 'site', site: 'north', base: '/api/s/north/site/v2', operationPath: null }],
    ['/api/s/north', { kind: 'site', site: 'north', base: '/api/s/north/site/v2', operationPath: null }],
    ['/api/s/nor%74h/site/v2/a', { kind: 'site', site: 'nor%74h', base: '/api/s/nor%74h/site/v2', operationPath: '/a' }],
    ['/api/s', { kind: 'site', site: '', base: '/api/s//site/v2', operationPath: null }],
    ['/api/s/', { kind: 'site', site: '', base: '/api/s//site/v2', operationPath: null }],
    ['/api/site/v2/forms/3/cases/1', { kind: 'site', site: null, base: '/api/site/v2', operationPath: '/forms/3/cases/1' }],
    ['/api/site/v2', { kind: 'site', site: null, base: '/api/site/v2', operationPath: '' }],
    ['/api/site/v2x', { kind: 'own-api' }],
    ['/api/sites', { kind: 'own-api' }],
    ['/api', { kind: 'own-api' }],
    ['/apis', { kind: 'page' }],
    ['/products/new', { kind: 'page' }],
    ['http://evil.example/api/site/v2/forms/3/cases/1', { kind: 'page' }],
  ])('reads %s', (path, address) => {
    expect(addressOf(path)).toEqual(address);
  });
});

describe('parseRequest', () => {
  it('reads the method and the path once, the query left aside', () => {
    const req = { method: 'POST', url: '/api/site/v2/ecommerce/products/create?site=2' } as IncomingMessage;
    const request = parseRequest(req, {} as ServerResponse);
    expect(request).toMatchObject({ method: 'POST', readOnly: false, path: '/api/site/v2/ecommerce/products/create' });
    expect(request.address).toMatchObject({ kind: 'site', operationPath: '/ecommerce/products/create' });
  });
});

describe('runSteps', () => {
  const request = {} as RequestContext;

  it('runs the steps in order until one answers', () => {
    const ran: string[] = [];
    const passes =
      (name: string): Step =>
      (_request, next) => {
        ran.push(name);
        next();
      };
    const answers: Step = () => ran.push('answers');
    runSteps([passes('a'), passes('b'), answers, passes('never')])(request);
    expect(ran).toEqual(['a', 'b', 'answers']);
  });

  it('says so when the last step hands the request on', () => {
    expect(() => runSteps([(_request, next) => next()])(request)).toThrow(/nothing answered/);
  });
});
