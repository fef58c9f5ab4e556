import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorShapeProblems, send, serveSteps } from '../testing/test-helpers';
import { checkHost } from './host-check';

describe('the host check', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    served = await serveSteps(checkHost(['admin.example.com', '127.0.0.1']));
  });
  afterAll(() => served.close());

  it.each(['admin.example.com', 'ADMIN.example.com:443', '127.0.0.1:4173', '127.9.9.9'])('hands on a request for %s', async (host) => {
    const reply = await send(served.port, { path: '/', headers: { host } });
    expect(reply.status).toBe(200);
  });

  it.each(['evil.example', 'admin.example.com.evil.example', '127.0.0.1.evil.example'])(
    'answers %s with 421, naming the host',
    async (host) => {
      const reply = await send(served.port, { path: '/api/sites', headers: { host } });
      expect(reply.status).toBe(421);
      expect(errorShapeProblems(421, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(reply.text).toContain(host);
    },
  );
});
