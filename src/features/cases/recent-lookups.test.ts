import { describe, expect, it } from 'vitest';
import {
  addRecentLookup,
  MAX_RECENT_LOOKUPS,
  parseRecentLookups,
  readRecentLookups,
  RECENT_LOOKUPS_KEY,
  writeRecentLookups,
  type RecentLookup,
} from './recent-lookups';

const entry = (form: string, id: string, at = 1): RecentLookup => ({ form, id, title: null, at });

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
    removeItem: (key: string) => void data.delete(key),
  };
}

describe('recent lookups', () => {
  it('puts the newest first, once, and keeps ten', () => {
    let list: RecentLookup[] = [];
    for (let i = 0; i < 12; i += 1) list = addRecentLookup(list, entry('3', String(48200 + i), i));
    expect(list).toHaveLength(MAX_RECENT_LOOKUPS);
    expect(list[0]?.id).toBe('48211');
    list = addRecentLookup(list, entry('3', '48205', 99));
    expect(list.map((l) => l.id).slice(0, 2)).toEqual(['48205', '48211']);
    expect(list.filter((l) => l.id === '48205')).toHaveLength(1);
  });

  it('round-trips through storage and clears by removing the key', () => {
    const storage = memoryStorage();
    const list = [{ form: '3', id: '48217', title: 'Contact us', at: 5 }];
    expect(writeRecentLookups(storage, list)).toBe(true);
    expect(readRecentLookups(storage)).toEqual(list);
    writeRecentLookups(storage, []);
    expect(storage.data.has(RECENT_LOOKUPS_KEY)).toBe(false);
  });

  it.each([['not json'], ['{"form":"3"}'], ['null'], ['42'], ['"text"']])('reads %j as an empty list', (raw) => {
    expect(parseRecentLookups(raw)).toEqual([]);
  });

  it('keeps the good entries of a damaged list', () => {
    const raw = JSON.stringify([
      entry('3', '1'),
      null,
      { form: 3, id: '2' },
      { form: '3', id: '../../admin' },
      { form: '3', id: 'x'.repeat(65) },
      { form: '7', id: '2', title: 42, at: 'soon' },
      entry('3', '1'),
    ]);
    expect(parseRecentLookups(raw)).toEqual([entry('3', '1'), { form: '7', id: '2', title: null, at: 0 }]);
  });

  it('survives a storage that throws', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(readRecentLookups(broken)).toEqual([]);
    expect(writeRecentLookups(broken, [entry('3', '1')])).toBe(false);
    expect(readRecentLookups(null)).toEqual([]);
  });
});
