import { describe, expect, it } from 'vitest';
import { apiErrors } from '@/lib/api-error';
import { createQueue, type Outcome } from './create-queue';

interface Call {
  key: number;
  resolve: (answer: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
}

/** A platform the test answers by hand, and a clock and waits it moves by hand. */
function harness(
  keys: number[],
  concurrency = 4,
  extra: { beforeSend?: (key: number) => Promise<void>; onHeld?: (key: number) => void } = {},
) {
  const calls: Call[] = [];
  const outcomes = new Map<number, Outcome>();
  const waits: { ms: number; release: () => void }[] = [];
  let clock = 1_000_000;
  const queue = createQueue({
    keys,
    concurrency,
    ...extra,
    send: (key) => new Promise((resolve, reject) => calls.push({ key, resolve, reject })),
    onOutcome: (key, outcome) => {
      outcomes.set(key, outcome);
    },
    now: () => clock,
    wait: (ms, signal) =>
      new Promise<void>((release) => {
        waits.push({ ms, release });
        signal.addEventListener('abort', () => release(), { once: true });
      }),
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { queue, calls, outcomes, waits, flush, tick: (ms: number) => (clock += ms) };
}

const apiError = (status: number, extra: { retryAfter?: string; details?: { field: string; message: string }[] } = {}) =>
  apiErrors.answered(status, status, { message: `Refused ${status}`, details: extra.details }, extra.retryAfter ?? null);

describe('createQueue', () => {
  it('sends at most `concurrency` at a time, in order, and finishes when all are answered', async () => {
    const h = harness([1, 2, 3, 4, 5, 6], 4);
    h.queue.start();
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1, 2, 3, 4]);
    h.calls[0]?.resolve({ id: 1 });
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1, 2, 3, 4, 5]);
    for (const call of h.calls.slice(1)) call.resolve({});
    await h.flush();
    h.calls[5]?.resolve({});
    await h.queue.idle();
    expect(h.queue.snapshot().state).toBe('done');
    expect([...h.outcomes.values()].every((o) => o.status === 'created')).toBe(true);
    expect(h.calls).toHaveLength(6);
  });

  it('a 422 marks that product rejected with the platform’s details, and the import goes on', async () => {
    const h = harness([1, 2], 1);
    h.queue.start();
    await h.flush();
    h.calls[0]?.reject(apiError(422, { details: [{ field: 'slug', message: 'Slug is already used' }] }));
    await h.flush();
    expect(h.outcomes.get(1)).toMatchObject({
      status: 'rejected',
      httpStatus: 422,
      details: [{ field: 'slug', message: 'Slug is already used' }],
    });
    expect(h.calls.map((c) => c.key)).toEqual([1, 2]);
  });

  it('429 with Retry-After: nothing more is sent until it has passed, then the same product goes first', async () => {
    const h = harness([1, 2, 3], 2);
    h.queue.start();
    await h.flush();
    h.calls[0]?.reject(apiError(429, { retryAfter: '7' }));
    await h.flush();
    expect(h.queue.snapshot()).toMatchObject({ state: 'waiting', backoffs: 1, resumeAt: 1_000_000 + 7000 });
    expect(h.waits.map((w) => w.ms)).toEqual([7000]);
    h.calls[1]?.resolve({});
    await h.flush();
    // Product 2's answer does not start product 3 while the platform asked to wait.
    expect(h.calls.map((c) => c.key)).toEqual([1, 2]);
    h.waits[0]?.release();
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1, 2, 1, 3]);
    expect(h.outcomes.has(1)).toBe(false);
  });

  it('503 with Retry-After is not processed: it waits and sends the same product again; a 429 without Retry-After waits twice as long each time', async () => {
    const h = harness([1], 1);
    h.queue.start();
    await h.flush();
    h.calls[0]?.reject(apiError(503, { retryAfter: '3' }));
    await h.flush();
    expect(h.queue.snapshot()).toMatchObject({ state: 'waiting', resumeAt: 1_000_000 + 3000 });
    h.waits[0]?.release();
    await h.flush();
    h.calls[1]?.reject(apiError(429));
    await h.flush();
    h.waits[1]?.release();
    await h.flush();
    h.calls[2]?.reject(apiError(429));
    await h.flush();
    expect(h.waits.map((w) => w.ms)).toEqual([3000, 2000, 4000]);
    expect(h.calls.map((c) => c.key)).toEqual([1, 1, 1]);
  });

  it('503 without Retry-After leaves the outcome unknown and is never sent again by itself', async () => {
    const h = harness([1, 2], 1);
    h.queue.start();
    await h.flush();
    h.calls[0]?.reject(apiError(503));
    await h.flush();
    h.calls[1]?.resolve({});
    await h.queue.idle();
    expect(h.outcomes.get(1)).toMatchObject({ status: 'unknown', message: expect.stringMatching(/may have been created/) });
    expect(h.calls.map((c) => c.key)).toEqual([1, 2]);
    expect(h.waits).toHaveLength(0);
  });

  it('with a slow beforeSend, a product whose turn came during a back-off is not sent until the back-off ends', async () => {
    // beforeSend is the import's storage write: here each one finishes only when the test says so.
    const pending = new Map<number, () => void>();
    const held: number[] = [];
    const h = harness([1, 2, 3, 4, 5, 6], 4, {
      beforeSend: (key) => new Promise<void>((resolve) => pending.set(key, resolve)),
      onHeld: (key) => void held.push(key),
    });
    h.queue.start();
    await h.flush();
    pending.get(1)?.();
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1]);
    h.calls[0]?.reject(apiError(429, { retryAfter: '1' }));
    await h.flush();
    expect(h.queue.snapshot().state).toBe('waiting');
    // The three others finish their write after the platform said to wait: none of them leaves.
    for (const key of [2, 3, 4]) pending.get(key)?.();
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1]);
    expect(held).toEqual([2, 3, 4]);
    expect(h.queue.snapshot()).toMatchObject({ inFlight: [], queued: 6 });
    h.waits[0]?.release();
    await h.flush();
    // In the file's order again, each passing its write once more.
    for (const key of [1, 2, 3, 4]) pending.get(key)?.();
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1, 1, 2, 3, 4]);
  });

  it('a pause during a slow beforeSend holds that product too', async () => {
    const pending = new Map<number, () => void>();
    const h = harness([1, 2], 2, { beforeSend: (key) => new Promise<void>((resolve) => pending.set(key, resolve)) });
    h.queue.start();
    await h.flush();
    h.queue.pause();
    pending.get(1)?.();
    pending.get(2)?.();
    await h.queue.idle();
    expect(h.calls).toHaveLength(0);
    expect(h.queue.snapshot()).toMatchObject({ state: 'paused', queued: 2 });
  });

  it('a dropped connection or a 500 leaves the outcome unknown, and that product is never sent again by itself', async () => {
    const h = harness([1, 2, 3], 3);
    h.queue.start();
    await h.flush();
    h.calls[0]?.reject(apiErrors.noAnswer());
    h.calls[1]?.reject(apiError(500));
    h.calls[2]?.resolve({});
    await h.queue.idle();
    expect(h.outcomes.get(1)?.status).toBe('unknown');
    expect(h.outcomes.get(2)?.status).toBe('unknown');
    expect(h.calls.map((c) => c.key)).toEqual([1, 2, 3]);
    expect(h.queue.snapshot().state).toBe('done');
  });

  it('pause lets the sends on their way finish and starts no more; resume goes on; cancel stops for good', async () => {
    const h = harness([1, 2, 3, 4], 2);
    h.queue.start();
    await h.flush();
    h.queue.pause();
    h.calls[0]?.resolve({});
    h.calls[1]?.resolve({});
    await h.queue.idle();
    expect(h.outcomes.size).toBe(2);
    expect(h.calls).toHaveLength(2);
    h.queue.resume();
    await h.flush();
    expect(h.calls.map((c) => c.key)).toEqual([1, 2, 3, 4]);
    h.queue.cancel();
    h.calls[2]?.resolve({});
    h.calls[3]?.resolve({});
    await h.queue.idle();
    expect(h.queue.snapshot()).toMatchObject({ state: 'cancelled', queued: 0 });
    expect(h.outcomes.size).toBe(4);
  });

  it('401 pauses the whole import with the reason, and the product waits its turn again', async () => {
    const h = harness([1, 2], 1);
    h.queue.start();
    await h.flush();
    h.calls[0]?.reject(apiError(401));
    await h.queue.idle();
    expect(h.queue.snapshot()).toMatchObject({ state: 'paused', queued: 2, reason: expect.stringMatching(/API key/) });
    expect(h.outcomes.size).toBe(0);
  });

  it('time spent paused is not counted as active', async () => {
    const h = harness([1], 1);
    h.queue.start();
    h.tick(500);
    h.queue.pause();
    h.tick(10_000);
    expect(h.queue.snapshot().activeMs).toBe(500);
  });
});
