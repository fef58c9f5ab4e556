import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBasicAuth } from '../login';
import { errorShapeProblems, send, serveSteps } from '../test-helpers';
import { authenticate } from './authentication';

const USER = 'staff';
const PASSWORD = 'correct horse battery';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('authentication with a login', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    served = await serveSteps(authenticate({ user: USER, check: createBasicAuth({ user: USER, password: PASSWORD }) }));
  });
  afterAll(() => served.close());

  it('asks for the login (401, with the challenge) and hands nothing on without it', async () => {
    const reply = await send(served.port, { path: '/cases' });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(errorShapeProblems(401, reply.headers['content-type'], reply.text)).toEqual([]);
  });

  it('says who asks once the login is right', async () => {
    const reply = await send(served.port, { path: '/cases', headers: { authorization: basic(USER, PASSWORD) } });
    expect(JSON.parse(reply.text)).toMatchObject({ passed: true, who: { kind: 'user', name: USER } });
  });

  it('answers the health check to anyone, and only the health check', async () => {
    expect(JSON.parse((await send(served.port, { path: '/api/health' })).text)).toMatchObject({ who: { kind: 'anyone' } });
    expect((await send(served.port, { path: '/api/health?full' })).status).toBe(401);
    expect((await send(served.port, { path: '/api/sites' })).status).toBe(401);
  });
});

describe('authentication without a login', () => {
  it('lets anyone who reaches the port in, as anyone', async () => {
    const served = await serveSteps(authenticate(undefined));
    try {
      expect(JSON.parse((await send(served.port, { path: '/cases' })).text)).toMatchObject({ who: { kind: 'anyone' } });
    } finally {
      await served.close();
    }
  });
});
