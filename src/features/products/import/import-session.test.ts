/**
 * The import's session against a stand-in of our server's import endpoints that keeps what the real ones
 * keep (versions, the run's lease, each product's status) and can be taken away or held mid-call, and this
 * browser's copy in memory (import-store.ts's own store over a Map).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ImportRecord, ServerProductStatus, SharedWork } from '@/contract/imports';
import type { WireProduct } from '@/contract/site-api';
import { apiErrors } from '@/lib/api-error';
import { importStore, memoryStore, type ImportFile, type ImportWork } from './import-store';
import { ImportSession, type ImportServer, type RunPlan } from './import-session';

const FILE: ImportFile = {
  fileName: 'linen.csv',
  delimiter: ',',
  headers: ['Name', 'Slug'],
  rows: [
    ['A', 'a'],
    ['B', 'b'],
    ['C', 'c'],
  ],
};
const WORK: ImportWork = { mapping: ['name', 'slug'], fixes: {}, statuses: {}, started: false, concurrency: 1 };

/** A promise the test settles by hand. */
function gate() {
  let open = () => undefined as void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function standInServer() {
  const imports = new Map<
    string,
    { file: ImportFile; work: SharedWork; version: number; runner: string | null; products: Record<string, ServerProductStatus> }
  >();
  let next = 0;
  const state = {
    reachable: true,
    /** Holds every save until opened. */
    saveGate: null as Promise<void> | null,
    /** Answers a renewal of the run (not its first claim) with 409: someone else took it. */
    takenOver: false,
    /** Holds each create until opened. */
    createGate: null as Promise<void> | null,
    sent: [] as string[],
    /** A slug whose create reaches the platform, and whose answer never reaches the page. */
    loseAnswerOf: null as string | null,
    released: [] as string[],
    /** The platform's products' fingerprints as they are now, by id; and the updates that reached the platform. */
    fingerprints: new Map<string, string>(),
    updated: [] as { id: string; body: string }[],
  };
  const away = () => {
    if (!state.reachable) throw apiErrors.noAnswer();
  };
  const one = (id: string) => {
    const found = imports.get(id);
    if (!found) throw apiErrors.answered(404, null, { message: 'There is no such import.' });
    return found;
  };
  const record = (id: string): ImportRecord => {
    const found = one(id);
    return {
      id,
      siteId: 'main',
      fileName: found.file.fileName,
      startedBy: 'Ana Ruiz',
      createdAt: 0,
      updatedAt: 0,
      counts: { products: 3, created: 0, updated: 0, rejected: 0, unknown: 0, skipped: 0, conflict: 0, pending: 3 },
      runner: found.runner ? { name: 'Ana Ruiz', since: 0, until: 0 } : null,
      endedAt: null,
      file: found.file,
      work: found.work,
      version: found.version,
      products: structuredClone(found.products),
    };
  };
  const server: ImportServer = {
    listImports: () => {
      away();
      return Promise.resolve([...imports.keys()].map((id) => record(id)));
    },
    readImport: (id) => {
      away();
      return Promise.resolve(record(id));
    },
    createImport: (_site, file, work) => {
      away();
      const id = `i${++next}`;
      imports.set(id, { file, work, version: 1, runner: null, products: {} });
      return Promise.resolve(record(id));
    },
    saveWork: async (id, version, work) => {
      await state.saveGate;
      away();
      const found = one(id);
      if (version !== found.version) throw apiErrors.answered(409, null, { message: 'Someone changed this import since you opened it.' });
      found.work = work;
      return ++found.version;
    },
    discardImport: (id) => {
      away();
      imports.delete(id);
      return Promise.resolve();
    },
    claimRun: (id, runner) => {
      away();
      const found = one(id);
      if ((found.runner !== null && found.runner !== runner) || (runner !== null && state.takenOver)) {
        return Promise.reject(apiErrors.answered(409, null, { message: 'Sam is running this import since 14:02.' }));
      }
      found.runner = runner ?? `run-${id}`;
      return Promise.resolve({ runner: found.runner });
    },
    releaseRun: (id, runner) => {
      away();
      state.released.push(runner);
      const found = one(id);
      if (found.runner === runner) found.runner = null;
      return Promise.resolve();
    },
    decideProduct: () => Promise.resolve(),
    updateProduct: () => Promise.reject(new Error('set below')),
    createProduct: async (body, headers) => {
      await state.createGate;
      const [id = '', key = ''] = (headers['x-import-product'] ?? '').split('/');
      const found = one(id);
      if (found.runner !== headers['x-import-runner'] || found.products[key]) {
        throw apiErrors.answered(409, null, { message: 'This product was already created. Nothing was sent.' });
      }
      state.sent.push(body.slug ?? '');
      found.products[key] = { status: 'created', at: 1, createSeq: 1, body: JSON.stringify(body), answer: '{}' };
      if (body.slug === state.loseAnswerOf) throw apiErrors.noAnswer();
      return { id: `p-${body.slug ?? ''}` };
    },
  };
  server.updateProduct = (productId, body, fingerprint, headers) => {
    const [id = '', key = ''] = (headers['x-import-product'] ?? '').split('/');
    const found = one(id);
    if (found.runner !== headers['x-import-runner'] || found.products[key]) {
      return Promise.reject(apiErrors.answered(409, null, { message: 'This product was already updated. Nothing was sent.' }));
    }
    // As our server's product-update step: read again, refused when it changed since it was read.
    if (state.fingerprints.get(productId) !== fingerprint) {
      found.products[key] = { status: 'conflict', at: 1, createSeq: null, message: 'Changed on the platform since the dry run.' };
      return Promise.reject(apiErrors.answered(412, null, { message: 'This product was changed on the platform since you opened it.' }));
    }
    state.updated.push({ id: productId, body: JSON.stringify(body) });
    found.products[key] = { status: 'updated', at: 1, createSeq: 1, body: JSON.stringify(body), answer: '{}' };
    return Promise.resolve({ id: productId });
  };
  return {
    server,
    state,
    imports,
    created: (id: string, key: string) => (one(id).products[key] = { status: 'created', at: 2, createSeq: 2 }),
  };
}

function sessionWith(stand: ReturnType<typeof standInServer>, kv = memoryStore(), tokens = new Map<string, string>()) {
  return new ImportSession({
    siteId: 'main',
    server: stand.server,
    store: importStore(kv),
    tokens: { read: (id) => tokens.get(id) ?? null, write: (id, token) => (token === null ? tokens.delete(id) : tokens.set(id, token)) },
    saveDelayMs: 0,
    renewMs: 5,
  });
}

const plan = (keys: number[]): RunPlan => ({
  keys,
  products: 3,
  body: (key): WireProduct => ({ name: FILE.rows[key]?.[0] ?? '', slug: FILE.rows[key]?.[1] ?? '', enabled: 'true' }),
});

describe('an import session', () => {
  it('without the server shows this browser’s copy and keeps changes; back, it saves them', async () => {
    const stand = standInServer();
    const first = sessionWith(stand);
    await first.load(FILE, WORK);
    const id = first.getState().work?.serverId ?? '';
    const kv = memoryStore();
    await importStore(kv).saveFile(FILE);
    await importStore(kv).saveWork(first.getState().work as ImportWork);

    stand.state.reachable = false;
    const session = sessionWith(stand, kv);
    await session.find();
    expect(session.getState()).toMatchObject({ offline: true, restoring: false, file: FILE });
    session.fix(0, 0, 'Ä', 0);
    await vi.waitFor(() => expect(session.getState().work?.fixes).toEqual({ '0:0': 'Ä' }));
    expect(stand.imports.get(id)?.work.fixes).toEqual({});

    stand.state.reachable = true;
    await session.received(await stand.server.readImport(id));
    await vi.waitFor(() => expect(stand.imports.get(id)?.work.fixes).toEqual({ '0:0': 'Ä' }));
    expect(session.getState().offline).toBe(false);
  });

  it('a save made stale by a colleague loads the import with their changes, and says so', async () => {
    const stand = standInServer();
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    const id = session.getState().work?.serverId ?? '';
    await stand.server.saveWork(id, 1, { mapping: ['slug', 'name'], fixes: {}, concurrency: 1, started: false });

    session.map(['name', null]);
    await vi.waitFor(() => expect(session.getState().notice).toMatch(/Someone changed this import/));
    await vi.waitFor(() => expect(session.getState().work).toMatchObject({ mapping: ['slug', 'name'], version: 2 }));
  });

  it('a read that crosses a save is set aside, and made again once the save is in', async () => {
    const stand = standInServer();
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    const id = session.getState().work?.serverId ?? '';
    const held = gate();
    stand.state.saveGate = held.promise;
    session.fix(1, 0, 'Bee', 1);
    // The product was created meanwhile (known to the server); the watch's read comes while the fix is being saved.
    stand.created(id, '0');
    const crossing = await stand.server.readImport(id);
    await session.received(crossing);
    expect(session.getState().work?.statuses['0']).toBeUndefined();
    expect(session.getState().work?.fixes).toEqual({ '1:0': 'Bee' });

    held.open();
    await vi.waitFor(() => expect(session.getState().work?.statuses['0']).toMatchObject({ status: 'created' }));
    expect(session.getState().work?.fixes).toEqual({ '1:0': 'Bee' });
    expect(stand.imports.get(id)?.work.fixes).toEqual({ '1:0': 'Bee' });
  });

  it('pauses when the run’s renewal is refused, and says who runs it', async () => {
    const stand = standInServer();
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    const held = gate();
    stand.state.createGate = held.promise;
    await session.run(plan([0, 1, 2]), 1);
    expect(session.getState().holding).toBe(true);
    stand.state.takenOver = true;
    await vi.waitFor(() => expect(session.getState().notice).toMatch(/Sam is running this import/));
    held.open();
    await vi.waitFor(() => expect(session.getState().progress?.snapshot.state).toBe('paused'));
    await vi.waitFor(() => expect(session.getState().holding).toBe(false));
    expect(stand.state.sent).toEqual(['a']);
  });

  it('stops the queue when our server refuses a create (409), and shows what the server knows', async () => {
    const stand = standInServer();
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    const id = session.getState().work?.serverId ?? '';
    stand.created(id, '0');
    await session.run(plan([0, 1, 2]), 1);
    await vi.waitFor(() => expect(session.getState().progress?.snapshot.state).toBe('paused'));
    expect(session.getState().notice).toMatch(/already created/);
    expect(stand.state.sent).toEqual([]);
    await vi.waitFor(() => expect(session.getState().work?.statuses['0']).toMatchObject({ status: 'created' }));
  });

  it('once the run is let go, shows what the server knows of a product whose answer the page lost', async () => {
    const stand = standInServer();
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    stand.state.loseAnswerOf = 'b';
    await session.run(plan([0, 1, 2]), 1);
    await vi.waitFor(() => expect(session.getState().progress?.snapshot.state).toBe('done'));
    await vi.waitFor(() => expect(session.getState().work?.statuses['1']).toMatchObject({ status: 'created' }));
    expect(stand.state.sent).toEqual(['a', 'b', 'c']);
  });

  it('sends a product of the site as its update, with the fingerprint read at the dry run; one changed since is held back, the rest go on', async () => {
    const stand = standInServer();
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    stand.state.fingerprints.set('1042', '"sha256-a"');
    stand.state.fingerprints.set('2077', '"sha256-b-changed-since"');
    const updates: Record<number, { id: string; fingerprint: string; body: { name: string; enabled: 'true'; weighting: string } }> = {
      0: { id: '1042', fingerprint: '"sha256-a"', body: { name: 'A', enabled: 'true', weighting: '5' } },
      1: { id: '2077', fingerprint: '"sha256-b"', body: { name: 'B', enabled: 'true', weighting: '6' } },
    };
    await session.run({ ...plan([0, 1, 2]), update: (key) => updates[key] ?? null }, 1);
    await vi.waitFor(() => expect(session.getState().progress?.snapshot.state).toBe('done'));
    const statuses = session.getState().work?.statuses ?? {};
    expect(statuses['0']).toMatchObject({ status: 'updated', body: updates[0]?.body });
    expect(statuses['1']).toMatchObject({ status: 'conflict', message: expect.stringMatching(/since the dry run/) });
    expect(statuses['2']).toMatchObject({ status: 'created' });
    // Exactly the planned update reached the platform, and the new product was created.
    expect(stand.state.updated).toEqual([{ id: '1042', body: JSON.stringify(updates[0]?.body) }]);
    expect(stand.state.sent).toEqual(['c']);
    expect(session.getState().notice).toBeNull();
  });

  it('an approved run sends every row with its approved change beside the import’s own headers', async () => {
    const stand = standInServer();
    const heard: Record<string, string>[] = [];
    const create = stand.server.createProduct;
    stand.server.createProduct = (body, headers) => {
      heard.push(headers);
      return create(body, headers);
    };
    const session = sessionWith(stand);
    await session.load(FILE, WORK);
    await session.run({ ...plan([0, 1]), approvedChange: 'ch-7' }, 1);
    await vi.waitFor(() => expect(session.getState().progress?.snapshot.state).toBe('done'));
    expect(heard).toHaveLength(2);
    for (const headers of heard) {
      expect(headers).toMatchObject({ 'x-approved-change': 'ch-7', 'x-import-runner': expect.any(String) as string });
      expect(headers['x-import-product']).toMatch(/\/[01]$/);
    }
  });

  it('a reload lets go of the run its tab held, then opens the import', async () => {
    const stand = standInServer();
    const tokens = new Map<string, string>();
    const kv = memoryStore();
    const before = sessionWith(stand, kv, tokens);
    await before.load(FILE, WORK);
    const id = before.getState().work?.serverId ?? '';
    stand.state.createGate = new Promise(() => undefined);
    await before.run(plan([0, 1, 2]), 1);
    expect(tokens.get(id)).toBe(`run-${id}`);

    const after = sessionWith(stand, kv, tokens);
    await after.find();
    expect(stand.state.released).toEqual([`run-${id}`]);
    expect(stand.imports.get(id)?.runner).toBeNull();
    expect(after.getState()).toMatchObject({ file: FILE, work: { serverId: id, started: true }, heldBy: null });
  });
});
