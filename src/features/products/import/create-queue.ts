/**
 * Sends the products of an import a few at a time, and decides what each answer means for it:
 * - 200: created; never sent again.
 * - 400/422 (or another 4xx but 401, 403, 429): rejected with the platform's details; the import goes on.
 * - 429, or 503 with `Retry-After`: not processed; everything waits for `Retry-After` (or a doubling
 *   back-off), then it is sent again.
 * - 401/403: nothing can succeed until whoever runs the server fixes its key: the queue pauses.
 * - no answer, a time-out, an unreadable answer or another 5xx (a 503 without `Retry-After` among them):
 *   the outcome is unknown (the product may exist), so it is never sent again automatically; the person
 *   decides.
 * What each answer means is decided once, for the editor too, by `writeMeaning` (src/lib/api-error-class.ts).
 * Pause and Cancel stop starting new sends; a send already on its way is never aborted, because aborting
 * it would leave its outcome unknown. Whether the queue may send is checked last, after `beforeSend` and
 * right before the request leaves: a product whose turn came while the queue was told to wait goes back
 * to the front of the queue unsent.
 *
 * Written here rather than taken from a limiter library (p-limit, p-queue): their queues know nothing of a
 * shared back-off, of outcomes that must not be retried, or of pausing with work already in flight, and
 * wrapping them would take more code than the loop below.
 */
import type { ErrorDetail } from '@/contract/site-api';
import { ApiError } from '@/lib/api-error';
import { failureSentence } from '@/lib/api-error-class';
import { explainWriteFailure, writeMeaning } from '@/lib/write-meaning';

export type Outcome =
  | { status: 'created'; answer: Record<string, unknown> }
  | { status: 'rejected'; httpStatus: number; message: string; details: readonly ErrorDetail[] }
  | { status: 'unknown'; message: string };

export type QueueState = 'running' | 'paused' | 'waiting' | 'cancelled' | 'done';

export interface QueueSnapshot<K> {
  state: QueueState;
  /** Why it paused by itself (401/403), or why it waits (429/503). */
  reason: string | null;
  /** When a back-off ends (ms since the epoch), while waiting. */
  resumeAt: number | null;
  inFlight: readonly K[];
  queued: number;
  /** Time spent running, paused time left out. */
  activeMs: number;
  settled: number;
  backoffs: number;
}

export interface QueueOptions<K> {
  keys: readonly K[];
  concurrency?: number;
  send: (key: K) => Promise<Record<string, unknown>>;
  /** Awaited before each send: the import writes "sending" where a reload will find it. */
  beforeSend?: (key: K) => Promise<void>;
  /**
   * After `beforeSend`, when the queue was told to wait, pause or stop meanwhile: the product was not sent
   * and is back in the queue (the import takes back its "sending").
   */
  onHeld?: (key: K) => void | Promise<void>;
  onOutcome: (key: K, outcome: Outcome) => void | Promise<void>;
  onChange?: (snapshot: QueueSnapshot<K>) => void;
  now?: () => number;
  /** Resolves after `ms`, or early when the signal aborts (the queue is cancelled or resumed by hand). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_CONCURRENCY = 4;
const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

const defaultWait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

type Meaning =
  { kind: 'outcome'; outcome: Outcome } | { kind: 'backoff'; ms: number | null; reason: string } | { kind: 'pause'; reason: string };

/** What a failed send means for the import: `writeMeaning`'s table, in the one translator's words. */
export function meaningOf(error: unknown, now: number): Meaning {
  const meaning = writeMeaning(error, now);
  const sentence = failureSentence(explainWriteFailure(error));
  switch (meaning.type) {
    case 'not-processed':
      return { kind: 'backoff', ms: meaning.afterMs, reason: `${sentence} Waiting before sending more.` };
    case 'configuration':
      return { kind: 'pause', reason: sentence };
    case 'unknown':
      return { kind: 'outcome', outcome: { status: 'unknown', message: sentence } };
    case 'refused':
      return {
        kind: 'outcome',
        outcome: {
          status: 'rejected',
          httpStatus: meaning.status,
          message: sentence,
          details: error instanceof ApiError ? error.details : [],
        },
      };
  }
}

export interface CreateQueue<K> {
  start(): void;
  pause(): void;
  resume(): void;
  cancel(): void;
  snapshot(): QueueSnapshot<K>;
  /** Settles when nothing is in flight and nothing more will start (done, paused or cancelled). */
  idle(): Promise<void>;
}

export function createQueue<K>(options: QueueOptions<K>): CreateQueue<K> {
  const { send, beforeSend, onHeld, onOutcome, onChange, now = Date.now, wait = defaultWait } = options;
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const queue = [...options.keys];
  const order = new Map(options.keys.map((key, index) => [key, index]));
  /** A product not sent after all goes back in its place: ahead of every product after it in the file. */
  const putBack = (key: K) => {
    const index = order.get(key) ?? 0;
    const at = queue.findIndex((other) => (order.get(other) ?? 0) > index);
    queue.splice(at === -1 ? queue.length : at, 0, key);
  };
  const inFlight = new Set<K>();
  let state: QueueState = 'paused';
  let reason: string | null = null;
  let resumeAt: number | null = null;
  let backoffs = 0;
  let nextBackoff = FIRST_BACKOFF_MS;
  let settled = 0;
  let activeMs = 0;
  let runningSince: number | null = null;
  let waitAbort: AbortController | null = null;
  let idleWaiters: (() => void)[] = [];

  const snapshot = (): QueueSnapshot<K> => ({
    state,
    reason,
    resumeAt,
    inFlight: [...inFlight],
    queued: queue.length,
    activeMs: activeMs + (runningSince === null ? 0 : now() - runningSince),
    settled,
    backoffs,
  });
  const changed = () => onChange?.(snapshot());
  const setState = (next: QueueState) => {
    const active = next === 'running' || next === 'waiting';
    if (active && runningSince === null) runningSince = now();
    if (!active && runningSince !== null) {
      activeMs += now() - runningSince;
      runningSince = null;
    }
    state = next;
  };
  const checkIdle = () => {
    if (inFlight.size > 0) return;
    if (state === 'running' && queue.length === 0) {
      setState('done');
      changed();
    }
    if (state === 'running' || state === 'waiting') return;
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((w) => w());
  };

  const backOff = (ms: number | null, why: string) => {
    if (state !== 'running') return;
    const delay = ms ?? nextBackoff;
    nextBackoff = Math.min(nextBackoff * 2, MAX_BACKOFF_MS);
    backoffs += 1;
    reason = why;
    resumeAt = now() + delay;
    setState('waiting');
    waitAbort = new AbortController();
    void wait(delay, waitAbort.signal).then(() => {
      waitAbort = null;
      if (state !== 'waiting') return;
      reason = null;
      resumeAt = null;
      setState('running');
      changed();
      pump();
    });
  };

  const run = async (key: K) => {
    inFlight.add(key);
    changed();
    let requeue = false;
    try {
      await beforeSend?.(key);
      // The gate, checked last: a back-off, a pause or a cancel that began while `beforeSend` ran holds
      // this product too. Nothing is awaited between this check and the request leaving.
      if (state !== 'running') {
        requeue = true;
        putBack(key);
        await onHeld?.(key);
        return;
      }
      let meaning: Meaning;
      try {
        meaning = { kind: 'outcome', outcome: { status: 'created', answer: await send(key) } };
      } catch (error) {
        meaning = meaningOf(error, now());
      }
      if (meaning.kind === 'outcome') {
        if (meaning.outcome.status === 'created') nextBackoff = FIRST_BACKOFF_MS;
        settled += 1;
        await onOutcome(key, meaning.outcome);
      } else {
        // Not done, by the platform's own word: it goes back in its place, first once sending starts again.
        requeue = true;
        putBack(key);
        if (meaning.kind === 'backoff') backOff(meaning.ms, meaning.reason);
        else if (state === 'running' || state === 'waiting') {
          waitAbort?.abort();
          reason = meaning.reason;
          resumeAt = null;
          setState('paused');
        }
      }
    } finally {
      inFlight.delete(key);
      changed();
      if (!requeue || state === 'running') pump();
      checkIdle();
    }
  };

  function pump() {
    while (state === 'running' && inFlight.size < concurrency && queue.length > 0) {
      const key = queue.shift() as K;
      void run(key);
    }
    checkIdle();
  }

  return {
    start() {
      if (state !== 'paused') return;
      reason = null;
      setState('running');
      changed();
      pump();
    },
    pause() {
      if (state !== 'running' && state !== 'waiting') return;
      waitAbort?.abort();
      resumeAt = null;
      reason = null;
      setState('paused');
      changed();
      checkIdle();
    },
    resume() {
      this.start();
    },
    cancel() {
      if (state === 'done' || state === 'cancelled') return;
      waitAbort?.abort();
      resumeAt = null;
      setState('cancelled');
      changed();
      checkIdle();
    },
    snapshot,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        checkIdle();
      }),
  };
}
