/**
 * The encoding rules on bytes as spreadsheet programs write them. The euro sign and curly quotes of
 * Windows-1252 are left to the end-to-end tests in Chromium: Node's own decoder reads that label as
 * ISO-8859-1, where those bytes are control characters.
 */
import { describe, expect, it } from 'vitest';
import { decodeText, isWorkbook, REPLACEMENT, sampleLine } from './encoding';

const TEXT = 'Name;Größe\nCafé Crème;Groß\n';
const utf8 = (text: string) => new TextEncoder().encode(text);
const utf16le = (text: string, bom = true) => {
  const bytes = new Uint8Array((bom ? 2 : 0) + text.length * 2);
  if (bom) bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    bytes[(bom ? 2 : 0) + i * 2] = code & 0xff;
    bytes[(bom ? 2 : 0) + i * 2 + 1] = code >> 8;
  }
  return bytes;
};
const utf16be = (text: string) => {
  const le = utf16le(text);
  for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1] ?? 0, le[i] ?? 0];
  return le;
};
/** Latin-1 bytes: what Windows-1252 writes for every character here. */
const latin1 = (text: string) => Uint8Array.from([...text].map((c) => c.charCodeAt(0)));

describe('decodeText', () => {
  it('reads UTF-8 with and without a byte order mark, dropping the mark', () => {
    expect(decodeText(utf8(TEXT))).toEqual({ text: TEXT, encoding: 'utf-8', how: 'valid-utf-8', unreadable: 0 });
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8(TEXT)]))).toEqual({
      text: TEXT,
      encoding: 'utf-8',
      how: 'bom',
      unreadable: 0,
    });
  });

  it('reads UTF-16 by its byte order mark, little- and big-endian (Excel’s “Unicode Text”)', () => {
    expect(decodeText(utf16le(TEXT))).toMatchObject({ text: TEXT, encoding: 'utf-16le', how: 'bom' });
    expect(decodeText(utf16be(TEXT))).toMatchObject({ text: TEXT, encoding: 'utf-16be', how: 'bom' });
  });

  it('reads bytes that are not valid UTF-8 as Windows-1252, and says so', () => {
    expect(decodeText(latin1(TEXT))).toEqual({ text: TEXT, encoding: 'windows-1252', how: 'not-utf-8', unreadable: 0 });
  });

  it('never turns a byte it cannot read into a character nobody wrote: it becomes U+FFFD, counted', () => {
    // Broken UTF-8 behind a byte order mark: the mark is believed, the broken byte is marked.
    const broken = decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, ...utf8('Caf'), 0xe9, ...utf8(' ok')]));
    expect(broken).toMatchObject({ encoding: 'utf-8', how: 'bom', unreadable: 1 });
    expect(broken.text).toBe(`Caf${REPLACEMENT} ok`);
    // A control character where a single-byte code page defines none (0x81 in Windows-1252).
    const undefinedByte = decodeText(Uint8Array.from([...latin1('Caf\xe9 '), 0x81]));
    expect(undefinedByte).toMatchObject({ encoding: 'windows-1252', unreadable: 1 });
    expect(undefinedByte.text).toBe(`Café ${REPLACEMENT}`);
  });

  it('reads in the encoding the person chose', () => {
    // A wrong choice shows in the text (UTF-8's two bytes for é as two Latin-9 characters) …
    expect(decodeText(utf8('Café'), 'iso-8859-15')).toMatchObject({ encoding: 'iso-8859-15', how: 'chosen', text: 'CafÃ©', unreadable: 0 });
    // … or as U+FFFD where it lands on a byte the code page leaves undefined (ß is C3 9F in UTF-8).
    expect(decodeText(utf8('Groß'), 'iso-8859-15')).toMatchObject({ text: `GroÃ${REPLACEMENT}`, unreadable: 1 });
    expect(decodeText(latin1('Caf\x8e'), 'macintosh').text).toBe('Café');
  });
});

describe('sampleLine', () => {
  it('shows the first line where a wrong encoding would show, else the first data line', () => {
    expect(sampleLine('Name,Price\nMug,3\nCafé,4\n')).toBe('Café,4');
    expect(sampleLine('Name,Price\nMug,3\n')).toBe('Mug,3');
    expect(sampleLine(`Name\n${'x'.repeat(300)}é`, 20)).toBe(`${'x'.repeat(19)}…`);
  });
});

describe('isWorkbook', () => {
  it('knows a workbook by its first bytes, whatever the file is called', () => {
    expect(isWorkbook(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14]))).toBe(true);
    expect(isWorkbook(Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe(true);
    expect(isWorkbook(utf8('PK,Name\n'))).toBe(false);
  });
});
