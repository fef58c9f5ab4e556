import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, serveSteps } from '../testing/test-helpers';
import { addSecurityHeaders, SECURITY_HEADERS } from './security-headers';
import { createOwnApi } from '../own-api';
import { refuseUnreadBodies } from './unread-bodies';

describe('the security headers', () => {
  let served: Awaited<ReturnType<typeof serveSteps>>;
  beforeAll(async () => {
    served = await serveSteps(addSecurityHeaders, refuseUnreadBodies(createOwnApi([])));
  });
  afterAll(() => served.close());

  it('are on an answer, and on a refusal of a later step alike', async () => {
    const answered = await send(served.port, { path: '/' });
    const refused = await send(served.port, { method: 'POST', path: '/', body: 'x' });
    expect([answered.status, refused.status]).toEqual([200, 405]);
    for (const reply of [answered, refused]) {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[name], name).toBe(value);
    }
  });

  it('allow scripts only from our own origin, and no framing', () => {
    expect(SECURITY_HEADERS['content-security-policy']).toContain("script-src 'self'");
    expect(SECURITY_HEADERS['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(SECURITY_HEADERS['x-frame-options']).toBe('DENY');
  });
});
