import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiErrors } from '@/lib/api-error';
import { createQueryClient } from './query-client';

afterEach(() => vi.useRealTimers());

/** Runs one query through the app's client until it settles; answers how often the fetcher ran. */
async function attempts(failure: unknown): Promise<number> {
  vi.useFakeTimers();
  const client = createQueryClient();
  const queryFn = vi.fn(() => Promise.reject(failure));
  const observer = new QueryObserver(client, { queryKey: ['case', '3', '1'], queryFn });
  const settled = new Promise<void>((resolve) => {
    const unsubscribe = observer.subscribe((result) => {
      if (result.status === 'error') {
        unsubscribe();
        resolve();
      }
    });
  });
  // Far beyond any retry delay: every retry the client would make has been made.
  await vi.advanceTimersByTimeAsync(120_000);
  await settled;
  client.clear();
  return queryFn.mock.calls.length;
}

const api = (status: number, platformStatus: number | null = null) => apiErrors.answered(status, platformStatus, { message: 'm' });

describe('the app’s query client', () => {
  it('asks once more when no answer came at all', async () => {
    expect(await attempts(apiErrors.noAnswer())).toBe(2);
  });

  it.each([
    ['our 504 (the platform timed out)', api(504)],
    ['our 502 (the platform could not be reached)', api(502)],
    ['a platform 500', api(500, 500)],
    ['404', api(404, 404)],
  ])('never asks again after %s', async (_what, error) => {
    expect(await attempts(error)).toBe(1);
  });
});

describe('a session that ends while the page is open', () => {
  /** Runs one query and one mutation failing with `failure` through a client; answers how often the app was told. */
  async function told(failure: unknown): Promise<number> {
    const onNotSignedIn = vi.fn();
    const client = createQueryClient({ onNotSignedIn });
    await client.fetchQuery({ queryKey: ['people'], queryFn: () => Promise.reject(failure), retry: false }).catch(() => undefined);
    const observer = new MutationObserver(client, { mutationFn: () => Promise.reject(failure) });
    await observer.mutate().catch(() => undefined);
    client.clear();
    return onNotSignedIn.mock.calls.length;
  }

  it('tells the app when our server answers a query or a change with 401', async () => {
    expect(await told(api(401))).toBe(2);
  });

  it.each([
    ['a platform’s 401 (its key refused)', api(401, 401)],
    ['our 403 (a role that does not allow it)', api(403)],
    ['no answer', apiErrors.noAnswer()],
  ])('does not for %s', async (_what, error) => {
    expect(await told(error)).toBe(0);
  });

  it('does not for a query the page makes in the background (the navigation’s counts): the next step finds it', async () => {
    const onNotSignedIn = vi.fn();
    const client = createQueryClient({ onNotSignedIn });
    const background = { retry: false, meta: { background: true } } as const;
    await client
      .fetchQuery({ queryKey: ['inbox-counts', 'x'], queryFn: () => Promise.reject(api(401)), ...background })
      .catch(() => undefined);
    expect(onNotSignedIn).not.toHaveBeenCalled();
    client.clear();
  });
});
