/** A slug suggested from the product name, in the contract's shape (SLUG_PATTERN, at most 255 characters). */
import { MAX_NAME_LENGTH } from '@/contract/rules';

// Letters that NFKD does not split into a base letter and a mark, spelled the way people transliterate them.
const LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ħ: 'h',
  ı: 'i',
  ł: 'l',
  þ: 'th',
};

/** "Crème Brûlée & Co. — 2026!" → "creme-brulee-and-co-2026"; "" when nothing Latin or numeric remains. */
export function suggestSlug(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðħıłþ]/g, (ch) => LETTERS[ch] ?? ch)
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // Cut at the limit, then drop the hyphen the cut may leave at the end.
  return words.slice(0, MAX_NAME_LENGTH).replace(/-+$/, '');
}
