import { describe, expect, it } from 'vitest';
import { readInboxCounts } from '@/contract/inbox-counts';
import { formNewText, newCasesBadge } from './inbox-counts';

const counts = (forms: Record<string, { new: number; more: boolean }>) => ({ forms, readAt: 1, pollMs: 30_000 });

describe('the badge of new cases', () => {
  it('adds up the forms, and says nothing when none is new', () => {
    expect(newCasesBadge(counts({ '3': { new: 2, more: false }, '21': { new: 10, more: false } }))).toEqual({
      text: '12',
      spoken: '12 new',
    });
    expect(newCasesBadge(counts({ '3': { new: 0, more: false } }))).toBeNull();
    expect(newCasesBadge(counts({}))).toBeNull();
    expect(newCasesBadge(undefined)).toBeNull();
  });

  it('says when a form may have more than it counted, and caps at 99+', () => {
    expect(newCasesBadge(counts({ '3': { new: 40, more: true }, '7': { new: 1, more: false } }))).toEqual({
      text: '41+',
      spoken: '41 or more new',
    });
    expect(newCasesBadge(counts({ '3': { new: 100, more: true }, '7': { new: 5, more: false } }))).toEqual({
      text: '99+',
      spoken: 'more than 99 new',
    });
    expect(newCasesBadge(counts({ '3': { new: 99, more: false } }))?.text).toBe('99');
  });
});

describe('readInboxCounts', () => {
  it('reads the counts and the server’s pace, and nothing of another shape', () => {
    expect(readInboxCounts({ forms: { '3': { new: 1, more: false } }, readAt: null, pollMs: 5000 })).toEqual({
      forms: { '3': { new: 1, more: false } },
      readAt: null,
      pollMs: 5000,
    });
    expect(readInboxCounts({ forms: { '3': { new: 1, more: false } }, readAt: 7 })).toEqual({
      forms: { '3': { new: 1, more: false } },
      readAt: 7,
    });
    expect(readInboxCounts({ forms: { '3': { new: '1', more: false } }, readAt: null })).toBeUndefined();
    expect(readInboxCounts({ forms: {}, readAt: null, pollMs: 0 })).toBeUndefined();
  });
});

describe('a form’s own count in the inbox’s form picker', () => {
  const counts = {
    forms: { '21': { new: 3, more: false }, '7': { new: 0, more: false }, '3': { new: 40, more: true }, '9': { new: 120, more: false } },
    readAt: 1,
  };
  it('says how many are new to the person, with + where there may be more, and nothing for none', () => {
    expect(formNewText(counts, '21')).toBe('3 new');
    expect(formNewText(counts, '3')).toBe('40+ new');
    expect(formNewText(counts, '9')).toBe('99+ new');
    expect(formNewText(counts, '7')).toBeNull();
    expect(formNewText(counts, '12')).toBeNull();
    expect(formNewText(undefined, '21')).toBeNull();
  });
});
