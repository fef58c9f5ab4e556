/**
 * Makes the characters a reader cannot see visible, as marks such as `⟨U+202E RLO⟩`: the direction
 * controls that reorder what follows them (so that U+202E then `gnp.exe` displays as `exe.png`), the
 * zero-width characters that hide inside a word, and every other format or control character. Line
 * breaks and tabs stay as they are. Pure: the viewer shows the parts, while Copy keeps copying the value
 * exactly as the platform wrote it.
 */

/** A run of ordinary text, or one invisible character and the mark that stands for it. */
export type RevealedPart = string | { char: string; mark: string };

/** Short names people search for; any other invisible character is named by its code point alone. */
const NAMES: Readonly<Record<number, string>> = {
  0x00: 'NUL',
  0x08: 'BS',
  0x0b: 'VT',
  0x0c: 'FF',
  0x0d: 'CR',
  0x1b: 'ESC',
  0x7f: 'DEL',
  0x85: 'NEL',
  0xad: 'SHY',
  0x061c: 'ALM',
  0x180e: 'MVS',
  0x200b: 'ZWSP',
  0x200c: 'ZWNJ',
  0x200d: 'ZWJ',
  0x200e: 'LRM',
  0x200f: 'RLM',
  0x2028: 'LSEP',
  0x2029: 'PSEP',
  0x202a: 'LRE',
  0x202b: 'RLE',
  0x202c: 'PDF',
  0x202d: 'LRO',
  0x202e: 'RLO',
  0x2060: 'WJ',
  0x2066: 'LRI',
  0x2067: 'RLI',
  0x2068: 'FSI',
  0x2069: 'PDI',
  0xfeff: 'BOM',
};

/**
 * Controls (but a tab, a line feed, and a carriage return that starts a line break), format characters
 * (bidi controls, zero-width characters, soft hyphens, tags), line and paragraph separators, and the
 * blank letters that render as nothing (the combining grapheme joiner, the Hangul fillers).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point of this pattern
const INVISIBLE_SOURCE = /\r(?!\n)|[\0-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\u034f\u115f\u1160\u3164\uffa0]/u.source;
/** Tells at once whether there is anything to do: most text has no invisible character at all. */
const ANY_INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');
const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'gu');
const PICTOGRAPH = /^\p{Extended_Pictographic}/u;
/** What may sit between a pictograph and a ZWJ: a variation selector or a skin tone. */
const EMOJI_TAIL = /(?:\ufe0e|\ufe0f|[\u{1f3fb}-\u{1f3ff}])+$/u;

/** The mark for one character: `⟨U+202E RLO⟩`, `⟨U+E0041⟩`. */
export function markOf(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  const name = NAMES[code];
  return `⟨U+${hex}${name ? ` ${name}` : ''}⟩`;
}

/** A ZWJ inside an emoji sequence (👩‍💻) joins two pictures; anywhere else it hides in a word. */
function joinsEmoji(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 8), at).replace(EMOJI_TAIL, '');
  const last = before.codePointAt(before.length - 1 - (/[\udc00-\udfff]$/.test(before) ? 1 : 0));
  return last !== undefined && PICTOGRAPH.test(String.fromCodePoint(last)) && PICTOGRAPH.test(text.slice(at + 1, at + 3));
}

function isMarked(text: string, char: string, at: number): boolean {
  return !(char === '\u200d' && joinsEmoji(text, at));
}

/** True when the text holds a character `revealInvisible` marks. */
export function hasInvisible(text: string): boolean {
  if (!ANY_INVISIBLE.test(text)) return false;
  for (const match of text.matchAll(INVISIBLE)) {
    if (isMarked(text, match[0], match.index)) return true;
  }
  return false;
}

/** The text in runs of ordinary text and marked characters; joined back (`char` for each mark) it is the text. */
export function revealInvisible(text: string): RevealedPart[] {
  if (!ANY_INVISIBLE.test(text)) return [text];
  const parts: RevealedPart[] = [];
  let from = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const char = match[0];
    if (!isMarked(text, char, match.index)) continue;
    if (match.index > from) parts.push(text.slice(from, match.index));
    parts.push({ char, mark: markOf(char) });
    from = match.index + char.length;
  }
  if (from < text.length || parts.length === 0) parts.push(text.slice(from));
  return parts;
}

/** The text as a reader should see it, marks written out: for places that take text only (a title). */
export function revealedText(text: string): string {
  return revealInvisible(text)
    .map((part) => (typeof part === 'string' ? part : part.mark))
    .join('');
}
