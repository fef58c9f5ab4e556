import { describe, expect, it } from 'vitest';
import { formatByteSize, hiddenAmount, isLongText, previewOf, SHOWN_LINES, utf8Length } from './long-value';

describe('long values', () => {
  it('cuts text of more than 500 characters or more than 8 lines, and nothing shorter', () => {
    expect(isLongText('x'.repeat(500))).toBe(false);
    expect(isLongText('x'.repeat(501))).toBe(true);
    expect(isLongText('line\n'.repeat(7) + 'line')).toBe(false);
    expect(isLongText('line\n'.repeat(8) + 'line')).toBe(true);
  });

  it('puts only the start of the text on the page: one line more than is shown, at most 1,500 characters', () => {
    expect(previewOf('x'.repeat(200 * 1024))).toHaveLength(1500);
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(previewOf(lines).split('\n')).toHaveLength(SHOWN_LINES + 1);
    expect(previewOf('short')).toBe('short');
  });

  it('never cuts an emoji in half', () => {
    const text = `${'x'.repeat(1499)}😀${'y'.repeat(600)}`;
    expect(previewOf(text)).toBe('x'.repeat(1499));
  });

  it('counts bytes as UTF-8 does', () => {
    expect(utf8Length('abc')).toBe(3);
    expect(utf8Length('é€😀')).toBe(2 + 3 + 4);
    expect(utf8Length('\ud800')).toBe(3);
    expect(utf8Length('x'.repeat(1000))).toBe(new TextEncoder().encode('x'.repeat(1000)).length);
  });

  it('writes sizes in KB and MB in the reader’s notation', () => {
    expect(formatByteSize(200 * 1024, 'en-US')).toBe('200 KB');
    expect(formatByteSize(600, 'en-US')).toBe('0.6 KB');
    expect(formatByteSize(1.25 * 1024 * 1024, 'en-US')).toBe('1.3 MB');
    expect(formatByteSize(1.25 * 1024 * 1024, 'de-DE')).toBe('1,3 MB');
    expect(formatByteSize(12.4 * 1024 * 1024, 'en-US')).toBe('12 MB');
  });

  it('says how much is hidden: the size of long text, the lines of short text of many lines', () => {
    expect(hiddenAmount('x'.repeat(200 * 1024), 'en-US')).toBe('200 KB');
    expect(hiddenAmount('a\n'.repeat(11) + 'a', 'en-US')).toBe('12 lines');
  });
});
