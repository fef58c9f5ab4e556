// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { setSiteScope } from '@/lib/site-scope';
import { DRAFTS_KEY, LEGACY_DRAFT_KEY, deleteDraft, listDrafts, saveDraft } from './draft-storage';
import { emptyProduct } from './model/product-form';

beforeEach(() => {
  localStorage.clear();
  setSiteScope(null);
});

const named = (name: string) => ({ ...emptyProduct(), name, slug: name.toLowerCase().replace(/ /g, '-') });

describe('drafts', () => {
  it('keeps several products in progress, the most recent first, and deletes one', () => {
    expect(saveDraft('a', named('Linen mug'), 1)).toBe(true);
    expect(saveDraft('b', named('Wool throw'), 3)).toBe(true);
    expect(listDrafts().map((d) => [d.id, d.values.name, d.step])).toEqual([
      ['b', 'Wool throw', 3],
      ['a', 'Linen mug', 1],
    ]);
    saveDraft('a', named('Linen mug, large'), 2);
    expect(listDrafts().map((d) => d.values.name)).toEqual(['Linen mug, large', 'Wool throw']);
    deleteDraft('b');
    expect(listDrafts().map((d) => d.id)).toEqual(['a']);
  });

  it('a blank product removes its draft', () => {
    saveDraft('a', named('Linen mug'), 1);
    saveDraft('a', emptyProduct(), 0);
    expect(listDrafts()).toEqual([]);
    expect(localStorage.getItem(DRAFTS_KEY)).toBeNull();
  });

  it('reads the draft an earlier version left, and moves it into the list on the next save', () => {
    localStorage.setItem(LEGACY_DRAFT_KEY, JSON.stringify({ savedAt: 1767225600000, step: 2, values: named('Old mug') }));
    expect(listDrafts()).toEqual([{ id: 'earlier-draft', savedAt: 1767225600000, step: 2, values: named('Old mug') }]);
    saveDraft('new', named('New mug'), 0);
    expect(localStorage.getItem(LEGACY_DRAFT_KEY)).toBeNull();
    expect(listDrafts().map((d) => d.values.name)).toEqual(['New mug', 'Old mug']);
    deleteDraft('earlier-draft');
    expect(listDrafts().map((d) => d.values.name)).toEqual(['New mug']);
  });

  it.each([
    ['not JSON', '{draft'],
    ['not a list', JSON.stringify({ id: 'a' })],
  ])('offers nothing for a stored list that is %s', (_what, raw) => {
    localStorage.setItem(DRAFTS_KEY, raw);
    expect(listDrafts()).toEqual([]);
  });

  it('leaves out the drafts it cannot read and keeps the rest', () => {
    localStorage.setItem(
      DRAFTS_KEY,
      JSON.stringify([
        { id: 'ok', savedAt: 2, step: 'review', values: named('Mug') },
        { id: 'bad', savedAt: 1, step: 0, values: { name: 7 } },
        { id: 'blank', savedAt: 1, step: 0, values: emptyProduct() },
        { savedAt: 1, step: 0, values: named('No id') },
      ]),
    );
    // A step that is not a step starts at the first one.
    expect(listDrafts()).toEqual([{ id: 'ok', savedAt: 2, step: 0, values: named('Mug') }]);
  });

  it('keeps each site’s drafts apart', () => {
    setSiteScope('harbour-linen');
    saveDraft('a', named('Harbour throw'), 0);
    setSiteScope('summit-outfitters');
    expect(listDrafts()).toEqual([]);
    saveDraft('b', named('Summit tent'), 0);
    setSiteScope('harbour-linen');
    expect(listDrafts().map((d) => d.values.name)).toEqual(['Harbour throw']);
  });
});
