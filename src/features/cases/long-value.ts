/**
 * When a value is too long to show whole in a row, and what its "Show all" button says. A long value is
 * cut to a few lines (CSS clamps the lines; only the start of the text is put on the page, so a 200 KB
 * answer costs the page no more than a short one) until the reader asks for all of it. Pure.
 */

/** Lines a cut value shows. */
export const SHOWN_LINES = 6;
/** Longer text, or text of more lines, is cut; shorter text is shown whole (about 12 lines on a phone). */
const LONG_CHARS = 500;
const LONG_LINES = 8;
/** Enough text to fill the shown lines on the widest screen. */
const PREVIEW_CHARS = 1500;
/** A list of more chips than this shows the first ones and a button. */
export const SHOWN_CHIPS = 24;

function lineCount(text: string, stopAfter: number): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && lines <= stopAfter; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

export function isLongText(text: string): boolean {
  return text.length > LONG_CHARS || lineCount(text, LONG_LINES) > LONG_LINES;
}

/**
 * The start of a long text: one line more than is shown (so the clamp's ellipsis says there is more), at
 * most PREVIEW_CHARS, never ending in half a surrogate pair.
 */
export function previewOf(text: string): string {
  let end = Math.min(text.length, PREVIEW_CHARS);
  let at = -1;
  for (let line = 0; line <= SHOWN_LINES; line += 1) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) break;
  }
  if (at !== -1 && at < end) end = at;
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

/** Bytes of the text in UTF-8, as it travels and is stored. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function formatNumber(value: number, fractionDigits: number, locale?: string): string {
  const key = `${locale ?? ''}|${fractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: fractionDigits });
    numberFormats.set(key, format);
  }
  return format.format(value);
}

/** "0.6 KB", "200 KB", "1.3 MB" (1 KB = 1,024 bytes), in the reader's notation. */
export function formatByteSize(bytes: number, locale?: string): string {
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${formatNumber(value, value < 10 ? 1 : 0, locale)} ${unit}`;
}

/** What "Show all" adds in brackets: the size, or for short text of many lines the number of lines. */
export function hiddenAmount(text: string, locale?: string): string {
  if (text.length > LONG_CHARS) return formatByteSize(utf8Length(text), locale);
  return `${formatNumber(lineCount(text, Infinity), 0, locale)} lines`;
}
