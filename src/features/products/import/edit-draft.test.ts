// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { setSiteScope } from '@/lib/site-scope';
import { emptyAttribute, emptyProduct } from '../model/product-form';
import { IMPORT_DRAFTS_KEY, baseOf, deleteImportDraft, findImportDraft, saveImportDraft } from './edit-draft';

const product = (name: string) => ({ ...emptyProduct(), name, attributes: [emptyAttribute()] });

describe('drafts of an import’s products', () => {
  beforeEach(() => {
    localStorage.clear();
    setSiteScope(null);
  });

  it('reads a product the same from one opening to the next, though its list keys are new', () => {
    expect(baseOf(product('Throw'))).toBe(baseOf(product('Throw')));
    expect(baseOf(product('Throw'))).not.toBe(baseOf(product('Mug')));
  });

  it('gives back the draft of the same rows read the same way, and no other', () => {
    const base = baseOf(product('Throw'));
    expect(saveImportDraft(0, base, { ...product('Throw'), slug: 'edited' }, 2)).toBe(true);
    expect(findImportDraft(0, base)).toMatchObject({ row: 0, step: 2, values: { slug: 'edited' } });
    // Another product, or the same row after the file changed.
    expect(findImportDraft(3, base)).toBeUndefined();
    expect(findImportDraft(0, baseOf(product('Throw, new file')))).toBeUndefined();
  });

  it('keeps one draft per product, the latest values, and forgets it when asked', () => {
    const base = baseOf(product('Throw'));
    saveImportDraft(0, base, { ...product('Throw'), slug: 'first' }, 1);
    saveImportDraft(0, base, { ...product('Throw'), slug: 'second' }, 3);
    saveImportDraft(5, 'other', product('Mug'), 0);
    expect(findImportDraft(0, base)?.values.slug).toBe('second');
    deleteImportDraft(0, base);
    expect(findImportDraft(0, base)).toBeUndefined();
    expect(findImportDraft(5, 'other')?.values.name).toBe('Mug');
  });

  it('leaves out a stored draft that is not a product form, as an older version or a hand edit may have left', () => {
    const base = baseOf(product('Throw'));
    saveImportDraft(0, base, product('Throw'), 0);
    const stored = JSON.parse(localStorage.getItem(IMPORT_DRAFTS_KEY) ?? '[]') as object[];
    localStorage.setItem(IMPORT_DRAFTS_KEY, JSON.stringify([...stored, { row: 1, base: 'x', savedAt: 1, step: 0, values: { name: 1 } }]));
    expect(findImportDraft(0, base)?.values.name).toBe('Throw');
    expect(findImportDraft(1, 'x')).toBeUndefined();
  });
});
