/**
 * A short, bounded load test of the whole server in sandbox mode (proxy → sandbox over loopback HTTP):
 * a fixed number of requests, every one answered, none failed. No timing assertions: this machine is
 * shared; `npm run bench` and `npm run soak` are where speed and memory are measured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../src/contract/site-api';
import type { SiteAdminServer } from './app';
import { seedCases } from './sandbox/seed';
import { errorShapeProblems, runAutocannon as run, send, startSandboxedSite, type AutocannonResult } from './testing/test-helpers';

/** Everything that went wrong in a run, as one readable list: empty when nothing did. */
function failures(result: AutocannonResult): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['errors', 'timeouts', 'mismatches', 'non2xx', 'resets'] as const) if (result[key] !== 0) out[key] = result[key];
  if (Object.keys(out).length > 0) out.statusCodeStats = result.statusCodeStats;
  return out;
}

describe('load: the whole server in sandbox mode', () => {
  let running: Awaited<ReturnType<typeof startSandboxedSite>>;
  let site: SiteAdminServer;
  let port: number;

  beforeAll(async () => {
    running = await startSandboxedSite('site-admin-load-');
    ({ site, port } = running);
  });

  afterAll(() => running?.stop());

  it('answers 3000 case lookups over 50 connections, every one 200 with the seeded record', async () => {
    const seeded = seedCases().find((c) => c.form === '3' && c.id === '48217');
    expect(seeded).toBeDefined();
    const result = await run({
      url: `http://127.0.0.1:${port}${API_BASE_PATH}/forms/3/cases/48217`,
      connections: 50,
      amount: 3000,
      timeout: 30,
      expectBody: JSON.stringify(seeded?.record),
    });
    expect(failures(result)).toEqual({});
    expect(result['2xx']).toBe(3000);
    expect(result.requests.total).toBe(3000);
  }, 120_000);

  it('creates 300 products over 10 connections, each stored exactly once', async () => {
    const store = site.sandbox!.store;
    const before = store.countProducts();
    let serial = 0;
    const result = await run({
      url: `http://127.0.0.1:${port}${API_BASE_PATH}/ecommerce/products/create`,
      connections: 10,
      amount: 300,
      timeout: 30,
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            serial += 1;
            return { ...request, body: JSON.stringify({ name: `Load ${serial}`, slug: `load-${serial}`, enabled: 'true' }) };
          },
        },
      ],
    });
    expect(failures(result)).toEqual({});
    expect(result['2xx']).toBe(300);
    expect(result.requests.total).toBe(300);
    expect(store.countProducts()).toBe(before + 300);
    const slugs = store
      .listProducts('1001', 1000)
      .map((p) => p.body.slug ?? '')
      .filter((slug) => slug.startsWith('load-'));
    expect(new Set(slugs).size).toBe(300);
    expect(store.integrityCheck()).toBe('ok');
  }, 120_000);

  it('answers 50 simultaneous creates of one slug with exactly one 200 and 49 422s, storing one product', async () => {
    const store = site.sandbox!.store;
    const before = store.countProducts();
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send(port, {
          method: 'POST',
          path: `${API_BASE_PATH}/ecommerce/products/create`,
          headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
          body: JSON.stringify({ name: `Race ${i}`, slug: 'one-slug-for-all' }),
        }),
      ),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(49).fill(422)]);
    for (const reply of replies.filter((r) => r.status === 422)) {
      expect(errorShapeProblems(422, reply.headers['content-type'], reply.text)).toEqual([]);
      expect(JSON.parse(reply.text)).toMatchObject({ details: [{ field: 'slug' }] });
    }
    expect(store.countProducts()).toBe(before + 1);
  }, 60_000);
});
