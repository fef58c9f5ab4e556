/**
 * Which encoding a spreadsheet's text file is in, decided before it is parsed, so that no character the
 * person did not write is ever sent. The browser's own `TextDecoder` does the decoding; the rules are:
 * 1. a byte order mark names it (UTF-8; UTF-16 LE or BE, which Excel writes for "Unicode Text");
 * 2. bytes that are valid UTF-8 (`fatal: true` refuses anything else) are UTF-8;
 * 3. otherwise Windows-1252, what Excel on Windows saves as "CSV" in western locales; the person can pick
 *    another from a short list, and sees a sample line either way before anything is sent.
 *
 * A single-byte code page has no character the person could have meant for bytes 0x80–0x9F where it leaves
 * them undefined (five of them in Windows-1252, all of them in ISO-8859-15): the WHATWG decoders turn those
 * into C1 control characters, which no spreadsheet cell holds on purpose. They become U+FFFD here, like any
 * byte a decoder could not read, and a cell holding U+FFFD is a problem on that cell (check.ts), never sent.
 */

import { TEXT_ENCODINGS } from '@/contract/imports';

export type TextEncodingName = (typeof TEXT_ENCODINGS)[number];

export const ENCODING_LABELS: Record<TextEncodingName, string> = {
  'utf-8': 'UTF-8',
  'windows-1252': 'Windows-1252 (Excel “CSV” on Windows, western Europe and the Americas)',
  'iso-8859-15': 'ISO-8859-15 (Latin-9)',
  macintosh: 'Mac OS Roman (older Excel for Mac)',
  'utf-16le': 'UTF-16 LE (Excel “Unicode Text”)',
  'utf-16be': 'UTF-16 BE',
};

/** How the encoding was decided: a byte order mark, the bytes being valid UTF-8, neither, or the person. */
export type EncodingHow = 'bom' | 'valid-utf-8' | 'not-utf-8' | 'chosen';

export interface DecodedText {
  text: string;
  encoding: TextEncodingName;
  how: EncodingHow;
  /** Characters that could not be read (U+FFFD in the text). */
  unreadable: number;
}

/** U+FFFD, the replacement character: what a decoder puts where it could not read the bytes. */
export const REPLACEMENT = '\uFFFD';

const BOMS: { bytes: number[]; encoding: TextEncodingName }[] = [
  { bytes: [0xef, 0xbb, 0xbf], encoding: 'utf-8' },
  { bytes: [0xff, 0xfe], encoding: 'utf-16le' },
  { bytes: [0xfe, 0xff], encoding: 'utf-16be' },
];

function bomOf(bytes: Uint8Array): TextEncodingName | null {
  for (const { bytes: mark, encoding } of BOMS) if (mark.every((b, i) => bytes[i] === b)) return encoding;
  return null;
}

const SINGLE_BYTE: ReadonlySet<TextEncodingName> = new Set(['windows-1252', 'iso-8859-15', 'macintosh']);
const C1_CONTROLS = /[\u0080-\u009f]/g;

const countUnreadable = (text: string) => {
  let count = 0;
  for (let i = text.indexOf(REPLACEMENT); i !== -1; i = text.indexOf(REPLACEMENT, i + 1)) count += 1;
  return count;
};

function decodeAs(bytes: Uint8Array, encoding: TextEncodingName): string {
  // The decoder drops a byte order mark of its own encoding (ignoreBOM: false); bytes it cannot read
  // become U+FFFD (not fatal here: the person sees where, cell by cell).
  const text = new TextDecoder(encoding).decode(bytes);
  return SINGLE_BYTE.has(encoding) ? text.replace(C1_CONTROLS, REPLACEMENT) : text;
}

/** The text of a file's bytes, in the encoding chosen or, without one, the one the rules above find. */
export function decodeText(bytes: Uint8Array, chosen?: TextEncodingName): DecodedText {
  const done = (text: string, encoding: TextEncodingName, how: EncodingHow): DecodedText => ({
    text,
    encoding,
    how,
    unreadable: countUnreadable(text),
  });
  if (chosen) return done(decodeAs(bytes, chosen), chosen, 'chosen');
  const bom = bomOf(bytes);
  if (bom) return done(decodeAs(bytes, bom), bom, 'bom');
  try {
    return done(new TextDecoder('utf-8', { fatal: true }).decode(bytes), 'utf-8', 'valid-utf-8');
  } catch {
    return done(decodeAs(bytes, 'windows-1252'), 'windows-1252', 'not-utf-8');
  }
}

/**
 * A line that shows whether the guess was right: the first line with a character outside ASCII (where a
 * wrong encoding shows), else the first line after the header; cut to `max` characters.
 */
export function sampleLine(text: string, max = 160): string {
  const lines = text.split(/\r\n|\n|\r/);
  const telling =
    lines.find((line) => /[^\x20-\x7e\t]/.test(line)) ?? lines.find((line, i) => i > 0 && line.trim() !== '') ?? lines[0] ?? '';
  return telling.length > max ? `${telling.slice(0, max - 1)}…` : telling;
}

/** A ZIP archive (an .xlsx or .ods workbook) or an OLE compound file (an .xls workbook), by its first bytes. */
export function isWorkbook(bytes: Uint8Array): boolean {
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  const ole = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1].every((b, i) => bytes[i] === b);
  return zip || ole;
}
