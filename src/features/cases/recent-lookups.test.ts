import { describe, expect, it } from 'vitest';
import { addRecentLookup, MAX_RECENT_LOOKUPS, parseRecentLookups, type RecentLookup } from './recent-lookups';

const entry = (form: string, id: string, at = 1): RecentLookup => ({ form, id, title: null, at });

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

  it.each([[{ form: '3' }], [null], [42], ['text']])('reads %j as an empty list', (json) => {
    expect(parseRecentLookups(json)).toEqual([]);
  });

  it('keeps the good entries of a damaged list', () => {
    const json: unknown = [
      entry('3', '1'),
      null,
      { form: 3, id: '2' },
      { form: '3', id: '../../admin' },
      { form: '3', id: 'x'.repeat(65) },
      { form: '7', id: '2', title: 42, at: 'soon' },
      entry('3', '1'),
    ];
    expect(parseRecentLookups(json)).toEqual([entry('3', '1'), { form: '7', id: '2', title: null, at: 0 }]);
  });
});
