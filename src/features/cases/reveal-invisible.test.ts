import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasInvisible, markOf, revealedText, revealInvisible, type RevealedPart } from './reveal-invisible';

/** Every character that changes the direction of the text around it. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;
const BIDI_LIST = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];

const joined = (parts: RevealedPart[]) => parts.map((part) => (typeof part === 'string' ? part : part.char)).join('');

/** Text that mixes ordinary letters, right-to-left script, emoji and every kind of invisible character. */
const mixedText = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.constantFrom(
        ...BIDI_LIST,
        ...ZERO_WIDTH,
        '\u00ad',
        '\u0000',
        '\u001b',
        '\r',
        '\n',
        '\t',
        '\u2028',
        '\u{e0041}',
        'שלום',
        '👩',
        '\ufe0f',
      ),
    ),
    { maxLength: 20 },
  )
  .map((pieces) => pieces.join(''));

describe('revealInvisible', () => {
  it('shows U+202E before gnp.exe as a mark, so the name reads as written and not as exe.png', () => {
    expect(revealInvisible('\u202Egnp.exe')).toEqual([{ char: '\u202E', mark: '⟨U+202E RLO⟩' }, 'gnp.exe']);
    expect(revealedText('\u202Egnp.exe')).toBe('⟨U+202E RLO⟩gnp.exe');
  });

  it('marks zero-width characters inside a word', () => {
    expect(revealedText('INV\u200B-2041')).toBe('INV⟨U+200B ZWSP⟩-2041');
    expect(revealedText('pay\u200dpal\u2060.com\ufeff')).toBe('pay⟨U+200D ZWJ⟩pal⟨U+2060 WJ⟩.com⟨U+FEFF BOM⟩');
  });

  it('names every bidi control and zero-width character', () => {
    for (const char of [...BIDI_LIST, ...ZERO_WIDTH]) expect(markOf(char)).toMatch(/^⟨U\+[0-9A-F]{4} [A-Z]+⟩$/);
  });

  it('marks other controls and format characters by their code point', () => {
    expect(revealedText('a\u0000b\u001bc\u00add\u{e0041}')).toBe('a⟨U+0000 NUL⟩b⟨U+001B ESC⟩c⟨U+00AD SHY⟩d⟨U+E0041⟩');
  });

  it('keeps line breaks and tabs, and a carriage return only as part of a line break', () => {
    expect(revealInvisible('one\r\ntwo\n\tthree')).toEqual(['one\r\ntwo\n\tthree']);
    expect(revealedText('one\rtwo')).toBe('one⟨U+000D CR⟩two');
  });

  it('leaves right-to-left script and the joiners of emoji sequences alone', () => {
    expect(revealInvisible('שלום عالم')).toEqual(['שלום عالم']);
    expect(hasInvisible('👩\u200d💻 and 🏳\ufe0f\u200d🌈')).toBe(false);
    expect(hasInvisible('a\u200db')).toBe(true);
  });

  it('gives ordinary text back whole, as one part', () => {
    expect(revealInvisible('')).toEqual(['']);
    expect(revealInvisible('Aroha Ngata')).toEqual(['Aroha Ngata']);
  });

  it('never shows a bidi control, whatever the text (property)', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        expect(revealedText(text)).not.toMatch(BIDI_CONTROLS);
        for (const part of revealInvisible(text)) if (typeof part === 'string') expect(part).not.toMatch(BIDI_CONTROLS);
      }),
      { numRuns: 2000 },
    );
  });

  it('loses nothing: the parts joined are the text, and a text without marks is left as it was (property)', () => {
    fc.assert(
      fc.property(fc.oneof(mixedText, fc.string({ unit: 'binary' })), (text) => {
        const parts = revealInvisible(text);
        expect(joined(parts)).toBe(text);
        expect(hasInvisible(text)).toBe(parts.some((part) => typeof part !== 'string'));
      }),
      { numRuns: 2000 },
    );
  });
});
