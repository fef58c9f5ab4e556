import { afterEach, describe, expect, it } from 'vitest';
import { setSiteScope } from '@/lib/site-scope';
import { importStore, memoryStore, type ImportWork } from './import-store';

const FILE = { fileName: 'a.csv', delimiter: ',', headers: ['Name'], rows: [['A'], ['B'], ['C']] };
const work = (statuses: ImportWork['statuses']): ImportWork => ({ mapping: ['name'], fixes: {}, statuses, started: true, concurrency: 4 });

afterEach(() => setSiteScope(null));

describe('importStore', () => {
  it('reloads what was answered, and reads a product that was on its way as outcome unknown', async () => {
    const kv = memoryStore();
    const store = importStore(kv);
    await store.saveFile(FILE);
    await store.saveWork(
      work({
        '0': { status: 'created', at: 1, answer: { id: 7 }, body: { name: 'A', enabled: 'true' } },
        '1': { status: 'sending', since: 2 },
      }),
    );
    const loaded = await importStore(kv).load();
    expect(loaded?.file).toEqual(FILE);
    expect(loaded?.work.statuses['0']?.status).toBe('created');
    expect(loaded?.work.statuses['1']).toEqual({ status: 'unknown', message: expect.stringContaining('may have been created') });
  });

  it('keeps each site’s import apart, and forgets one that cannot be read', async () => {
    const kv = memoryStore();
    setSiteScope('harbour-linen');
    await importStore(kv).saveFile(FILE);
    await importStore(kv).saveWork(work({}));
    setSiteScope('summit-outfitters');
    expect(await importStore(kv).load()).toBeNull();
    setSiteScope('harbour-linen');
    expect((await importStore(kv).load())?.file.fileName).toBe('a.csv');
    kv.data.set('site-admin:import:work:v1@harbour-linen', { mapping: 'not a list' });
    expect(await importStore(kv).load()).toBeNull();
  });

  it('writes the newest of the works saved while a write waits, in order with the file and a clear', async () => {
    const kv = memoryStore();
    const writes: unknown[] = [];
    const store = importStore({ ...kv, set: (key, value) => (writes.push(value), kv.set(key, value)) });
    const saves = [store.saveFile(FILE), store.saveWork(work({})), store.saveWork(work({ '0': { status: 'sending', since: 1 } }))];
    const last = store.saveWork(work({ '0': { status: 'created', at: 2, answer: { id: 7 }, body: { name: 'A', enabled: 'true' } } }));
    await Promise.all([...saves, last]);
    // The file, then one write of the work: the newest.
    expect(writes).toHaveLength(2);
    expect((await importStore(kv).load())?.work.statuses['0']?.status).toBe('created');
    // A work saved after a clear is not written before it.
    const cleared = store.clear();
    await store.saveWork(work({}));
    await cleared;
    expect(await kv.get('site-admin:import:work:v1')).toEqual(work({}));
  });
});
