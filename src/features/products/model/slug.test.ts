import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_LENGTH, SLUG_PATTERN } from '@/contract/rules';
import { suggestSlug } from './slug';

describe('suggestSlug', () => {
  it.each([
    ['Crème Brûlée & Co. — 2026!', 'creme-brulee-and-co-2026'],
    ['Linen Throw', 'linen-throw'],
    ['  --Hello,   World--  ', 'hello-world'],
    ['A&B', 'a-and-b'],
    ['Straße', 'strasse'],
    ['Smørrebrød Æble Łódź', 'smorrebrod-aeble-lodz'],
    ['Ｆｕｌｌｗｉｄｔｈ ①', 'fullwidth-1'],
    ['Mug ☕ 350 ml 🎉', 'mug-350-ml'],
    ['🎉🎉', ''],
    ['抹茶', ''],
    ['抹茶 Matcha', 'matcha'],
    ['', ''],
    ['---', ''],
  ])('%j → %j', (name, slug) => expect(suggestSlug(name)).toBe(slug));

  it('cuts at 255 characters without leaving a hyphen at the end', () => {
    const slug = suggestSlug(`${'a'.repeat(254)} bcd`);
    expect(slug).toBe('a'.repeat(254));
    expect(suggestSlug('x'.repeat(300))).toHaveLength(MAX_NAME_LENGTH);
  });

  it('always matches SLUG_PATTERN within 255 characters, or is empty', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          fc.string({ unit: fc.constantFrom(...'aZé&- .—_9ßø🎉抹'.split('')), maxLength: 300 }),
        ),
        (name) => {
          const slug = suggestSlug(name);
          expect(slug.length).toBeLessThanOrEqual(MAX_NAME_LENGTH);
          if (slug !== '') expect(slug).toMatch(SLUG_PATTERN);
        },
      ),
      { numRuns: 300 },
    );
  });
});
