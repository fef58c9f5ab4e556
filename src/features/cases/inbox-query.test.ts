import { describe, expect, it } from 'vitest';
import { casesInGroups } from './inbox-query';

describe('a page’s case ids in groups for GET work', () => {
  it('asks for a page of short ids in one request', () => {
    const ids = Array.from({ length: 500 }, (_, n) => String(50_000 + n));
    expect(casesInGroups(ids)).toEqual([ids]);
  });

  it('splits a page of long ids so that no request’s ?cases= is over 6,000 characters, every id once and in order', () => {
    const ids = Array.from({ length: 500 }, (_, n) => `${'x'.repeat(60)}${String(n).padStart(4, '0')}`);
    const groups = casesInGroups(ids);
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.flat()).toEqual(ids);
    for (const group of groups) expect(group.map(encodeURIComponent).join(',').length).toBeLessThanOrEqual(6_000);
  });

  it('asks for nothing when there is nothing', () => {
    expect(casesInGroups([])).toEqual([]);
  });
});
