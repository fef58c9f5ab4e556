/**
 * The list of a form's cases through the whole server to its built-in sandbox (a worker thread over
 * loopback): what the browser's reader gets. A page in the default envelope with the platform's status
 * beside it; the platform's own 404 for a form without cases, told apart from our server's 404 by
 * `x-platform-status`; a refused parameter answered by our server alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../src/contract/site-api';
import { PLATFORM_STATUS_HEADER } from '../src/contract/server-meta';
import { errorShapeProblems, send, startSandboxedSite } from './testing/test-helpers';

describe('the list of a form’s cases through the whole server', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-case-list-');
  });
  afterAll(() => running.stop());

  const list = (query: string, form = '21') => send(running.port, { path: `${API_BASE_PATH}/forms/${form}/cases${query}` });

  it('answers a page of the warranty claims in the default envelope, newest first', async () => {
    const reply = await list('?per_page=50&page=2&sort_type=created_at&sort_order=desc');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers[PLATFORM_STATUS_HEADER]).toBe('200');
    const body = JSON.parse(reply.text) as {
      results: { created_at: number }[];
      total_entries: number;
      current_page: number;
      per_page: number;
    };
    expect(body).toMatchObject({ total_entries: 340, current_page: 2, per_page: 50 });
    expect(body.results).toHaveLength(50);
    const times = body.results.map((c) => c.created_at);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('passes the platform’s 404 on for a form without cases, marked as the platform’s', async () => {
    const reply = await list('', '99');
    expect(reply.status).toBe(404);
    expect(reply.headers[PLATFORM_STATUS_HEADER]).toBe('404');
    expect(JSON.parse(reply.text)).toEqual({ error: 'Not Found', message: 'The form does not contain any cases', code: 404 });
  });

  it('refuses a page of more than 500 itself, without the platform’s status', async () => {
    const reply = await list('?per_page=1000');
    expect(reply.status).toBe(422);
    expect(reply.headers[PLATFORM_STATUS_HEADER]).toBeUndefined();
    expect(errorShapeProblems(422, reply.headers['content-type'], reply.text)).toEqual([]);
  });
});
