// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { clearDraft, DRAFT_KEY, loadDraft, saveDraft } from './draft-storage';
import { emptyProduct } from './model/product-form';

beforeEach(() => localStorage.clear());

const mug = () => ({ ...emptyProduct(), name: 'Linen mug', slug: 'linen-mug' });

describe('the draft', () => {
  it('loads a draft an existing user saved before, in the stored format', () => {
    // What the editor has always written: { savedAt, step, values } under the v1 key.
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ savedAt: 1767225600000, step: 2, values: mug() }));
    expect(loadDraft()).toEqual({ savedAt: 1767225600000, step: 2, values: mug() });
  });

  it('saves in that same format, and a blank product removes the draft', () => {
    expect(saveDraft(mug(), 3)).toBe(true);
    const stored = JSON.parse(localStorage.getItem(DRAFT_KEY) ?? 'null') as { savedAt: unknown; step: unknown; values: unknown };
    expect(stored).toEqual({ savedAt: expect.any(Number), step: 3, values: mug() });
    expect(saveDraft(emptyProduct(), 0)).toBe(true);
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull();
  });

  it.each([
    ['not JSON', '{draft'],
    ['no values', JSON.stringify({ savedAt: 1, step: 0 })],
    ['values of another shape', JSON.stringify({ savedAt: 1, step: 0, values: { name: 7 } })],
    ['no time', JSON.stringify({ step: 0, values: { ...emptyProduct(), name: 'x' } })],
    ['a blank product', JSON.stringify({ savedAt: 1, step: 0, values: emptyProduct() })],
  ])('offers nothing for %s', (_what, raw) => {
    localStorage.setItem(DRAFT_KEY, raw);
    expect(loadDraft()).toBeNull();
  });

  it('starts at the first step when the stored step is not a step', () => {
    localStorage.setItem(DRAFT_KEY, JSON.stringify({ savedAt: 1, step: 'review', values: mug() }));
    expect(loadDraft()?.step).toBe(0);
  });

  it('clears', () => {
    saveDraft(mug(), 1);
    clearDraft();
    expect(localStorage.getItem(DRAFT_KEY)).toBeNull();
    expect(loadDraft()).toBeNull();
  });
});
