/**
 * An import kept in this browser (IndexedDB through idb-keyval), per site, so a reload, a closed tab or a
 * crash resumes it where it stopped. Two records: the file (written once, it can be large) and the work
 * on it (mapping, fixes, each product's status: small, written on every change). Both are read back
 * through schemas, because what is stored may come from an older version.
 *
 * The promise that matters: a product is marked "sending" here before its request leaves, and "created"
 * as soon as the platform answers 200. A reload therefore never sends a created product again, and a
 * product it finds "sending" (its answer lost with the page) is "outcome unknown".
 */
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import * as z from 'zod/mini';
import {
  importFileSchema,
  productStatusSchema,
  sharedWorkSchema,
  type FileSource,
  type ImportFile,
  type ProductStatus,
} from '@/contract/imports';
import { scopedKey } from '@/lib/site-scope';

// The contract's shapes, under the names the import's files read them by.
export type { FileSource, ImportFile, ProductStatus };

/** The work on the file as this browser keeps it: what every browser shares, each product's status, and how it stands with the server. */
const workSchema = z.extend(z.omit(sharedWorkSchema, { products: true }), {
  /** By the product's first row. */
  statuses: z.record(z.string(), productStatusSchema),
  /** Kept as a page chose it, even outside the server's bounds (an earlier version's copy). */
  concurrency: z.number(),
  /** The server's import this is a copy of, and its version then; absent while the server has not kept it. */
  serverId: z.optional(z.string()),
  version: z.optional(z.number()),
  /** When this copy was last in step with the server (epoch ms). */
  syncedAt: z.optional(z.number()),
});
export type ImportWork = z.infer<typeof workSchema>;

export interface SavedImport {
  file: ImportFile;
  work: ImportWork;
}

/** Where the records live: IndexedDB in the browser; a Map in unit tests (jsdom has no IndexedDB). */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
}

let idbStore: UseStore | null = null;
export const indexedDbStore: KeyValueStore = {
  get: (key) => get(key, (idbStore ??= createStore('site-admin', 'imports'))),
  set: (key, value) => set(key, value, (idbStore ??= createStore('site-admin', 'imports'))),
  del: (key) => del(key, (idbStore ??= createStore('site-admin', 'imports'))),
};

const FILE_KEY = 'site-admin:import:file:v1';
const WORK_KEY = 'site-admin:import:work:v1';

export interface ImportStore {
  load(): Promise<SavedImport | null>;
  saveFile(file: ImportFile): Promise<void>;
  /**
   * Writes are applied in order; each promise settles once its work (or a newer one) and every earlier
   * write are stored. Works saved while a write is waiting its turn are written once, the newest.
   */
  saveWork(work: ImportWork): Promise<void>;
  clear(): Promise<void>;
}

/** The import store of the current site. */
export function importStore(kv: KeyValueStore = indexedDbStore): ImportStore {
  // Keys read when used: the page may switch sites between calls.
  const fileKey = () => scopedKey(FILE_KEY);
  const workKey = () => scopedKey(WORK_KEY);
  let chain: Promise<void> = Promise.resolve();
  /**
   * The work's write that waits its turn in the chain, if any. A run of 16 creates at a time changes the
   * work a few hundred times a second, and each write clones every status: later works take the place of
   * the waiting one rather than queueing a write each (measured: one write for every few changes at 16).
   */
  let waiting: { work: ImportWork; done: Promise<void> } | null = null;
  const inOrder = (write: () => Promise<void>) => {
    // Anything else queued after a waiting work: a later work must not overtake it (a clear, say).
    waiting = null;
    chain = chain.then(write, write);
    return chain;
  };
  const saveWork = (work: ImportWork): Promise<void> => {
    if (waiting) {
      waiting.work = work;
      return waiting.done;
    }
    const batch: { work: ImportWork; done: Promise<void> } = { work, done: Promise.resolve() };
    const write = () => {
      if (waiting === batch) waiting = null;
      return kv.set(workKey(), batch.work);
    };
    chain = chain.then(write, write);
    batch.done = chain;
    waiting = batch;
    return batch.done;
  };
  return {
    async load() {
      const [file, work] = await Promise.all([kv.get(fileKey()), kv.get(workKey())]);
      const parsedFile = importFileSchema.safeParse(file);
      const parsedWork = workSchema.safeParse(work);
      if (!parsedFile.success || !parsedWork.success) return null;
      const statuses: ImportWork['statuses'] = {};
      for (const [key, status] of Object.entries(parsedWork.data.statuses)) {
        // Its answer was lost with the page that sent it.
        statuses[key] =
          status.status === 'sending'
            ? { status: 'unknown', message: 'The page closed while this product was being sent: it may have been created.' }
            : status;
      }
      return { file: parsedFile.data, work: { ...parsedWork.data, statuses } };
    },
    saveFile: (file) => inOrder(() => kv.set(fileKey(), file)),
    saveWork,
    clear: () =>
      inOrder(async () => {
        await kv.del(workKey());
        await kv.del(fileKey());
      }),
  };
}

/** An in-memory store with the same behaviour, for tests. */
export function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: (key) => Promise.resolve(structuredClone(data.get(key))),
    set: (key, value) => {
      data.set(key, structuredClone(value));
      return Promise.resolve();
    },
    del: (key) => {
      data.delete(key);
      return Promise.resolve();
    },
  };
}
