/**
 * What a value of a case is, so the viewer can render it by its nature: a link, an address, a date, a
 * list of chips, an expandable object, text with its line breaks, or an empty value shown as empty.
 * Pure; the key (when there is one) helps to tell a timestamp from an order number.
 */
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import { isJsonObject } from '@/contract/site-api-basics';
import { isExactNumber, type ExactNumber } from '@/lib/exact-number';

/** An `ExactNumber` is a number the platform wrote that a JavaScript number would change (see exact-json). */
export type Scalar = string | number | boolean | ExactNumber;

export type ValueKind =
  | { kind: 'empty'; description: string }
  | { kind: 'boolean'; value: boolean }
  /** `text` is the number as the platform wrote it, digit for digit. */
  | { kind: 'number'; text: string }
  | { kind: 'date'; date: Date; dateOnly: boolean; source: 'epoch-seconds' | 'epoch-milliseconds' | 'iso' }
  | { kind: 'url'; href: string }
  | { kind: 'email'; address: string }
  | { kind: 'multiline'; text: string }
  | { kind: 'text'; text: string }
  | { kind: 'chips'; items: Scalar[] }
  | { kind: 'list'; items: unknown[] }
  | { kind: 'object'; entries: [string, unknown][] };

const URL_PATTERN = /^https?:\/\/[^\s<>"]+$/i;
const EMAIL_PATTERN = /^[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[^\s@<>()[\]",;:]+$/;
const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const DIGITS = /^(0|[1-9]\d{0,15})$/;

/** Last words that make a key a moment in time: created_at, release_date, updatedAt, timestamp. */
const DATE_WORDS = new Set(['at', 'on', 'date', 'time', 'timestamp', 'created', 'updated', 'modified', 'submitted', 'expiry', 'expires']);
/** Words that make a number a number even in the epoch range: order_id, phone, postcode, total. */
const NUMBER_WORDS = new Set([
  'id',
  'ids',
  'code',
  'number',
  'no',
  'num',
  'phone',
  'mobile',
  'tel',
  'fax',
  'zip',
  'postcode',
  'pin',
  'count',
  'qty',
  'quantity',
  'amount',
  'price',
  'total',
  'sum',
  'size',
  'ref',
  'reference',
  'sku',
  'isbn',
  'gtin',
  'ean',
]);

/** The words of a key: `created_at` → [created, at]; `orderId` → [order, id]. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function isDateKey(key: string | undefined): boolean {
  const words = key === undefined ? [] : keyWords(key);
  return words.length > 0 && DATE_WORDS.has(words[words.length - 1] ?? '');
}

function isNumberKey(key: string | undefined): boolean {
  return key !== undefined && keyWords(key).some((word) => NUMBER_WORDS.has(word));
}

function epochDate(value: number, key: string | undefined): ValueKind | null {
  if (!Number.isSafeInteger(value) || value < 0) return null;
  const dateKey = isDateKey(key);
  // Ten digits are seconds between 2001 and 2286: a date, unless the key says it is a count or an id.
  if (value >= 1e9 && value < 1e10 && (dateKey || !isNumberKey(key))) {
    return { kind: 'date', date: new Date(value * 1000), dateOnly: false, source: 'epoch-seconds' };
  }
  if (!dateKey) return null;
  if (value >= 1e12 && value < 1e13) return { kind: 'date', date: new Date(value), dateOnly: false, source: 'epoch-milliseconds' };
  if (value <= MAX_EPOCH_SECONDS) return { kind: 'date', date: new Date(value * 1000), dateOnly: false, source: 'epoch-seconds' };
  return null;
}

function isoDate(text: string): ValueKind | null {
  const match = ISO_PATTERN.exec(text);
  if (!match) return null;
  const [, year, month, day, hour] = match;
  if (Number(year) < 1000 || Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > 31) return null;
  const dateOnly = hour === undefined;
  // A calendar date has no time zone: read it as UTC and show it in UTC, so it is the same day everywhere.
  const date = new Date(dateOnly ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
  if (Number.isNaN(date.getTime())) return null;
  return { kind: 'date', date, dateOnly, source: 'iso' };
}

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || isExactNumber(value);
}

/** Chips suit short plain words; anything a reader must open or read in full gets a list. */
function isChip(value: unknown): value is Scalar {
  if (!isScalar(value)) return false;
  if (typeof value !== 'string') return true;
  return value.trim() !== '' && value.length <= 80 && !value.includes('\n') && !URL_PATTERN.test(value) && !EMAIL_PATTERN.test(value);
}

export function classifyString(text: string, key?: string): ValueKind {
  if (text === '') return { kind: 'empty', description: 'empty text' };
  if (text.trim() === '') return { kind: 'empty', description: `blank text: ${text.length} ${text.length === 1 ? 'space' : 'spaces'}` };
  if (text.includes('\n')) return { kind: 'multiline', text };
  const trimmed = text.trim();
  if (URL_PATTERN.test(trimmed)) {
    try {
      return { kind: 'url', href: new URL(trimmed).href };
    } catch {
      return { kind: 'text', text };
    }
  }
  if (EMAIL_PATTERN.test(trimmed)) return { kind: 'email', address: trimmed };
  const iso = isoDate(trimmed);
  if (iso) return iso;
  // Digits in a string are a date only where the key says so (`"release_date": "1767225600"`).
  if (DIGITS.test(trimmed) && isDateKey(key)) return epochDate(Number(trimmed), key) ?? { kind: 'text', text };
  return { kind: 'text', text };
}

export function classifyValue(value: unknown, key?: string): ValueKind {
  if (value === null) return { kind: 'empty', description: 'null' };
  if (value === undefined) return { kind: 'empty', description: 'no value' };
  if (typeof value === 'boolean') return { kind: 'boolean', value };
  if (typeof value === 'number') return epochDate(value, key) ?? { kind: 'number', text: String(value) };
  // Too many digits for a JavaScript number, or written in a form one would not keep (1.50, 1e3).
  if (isExactNumber(value)) return { kind: 'number', text: value.toString() };
  if (typeof value === 'string') return classifyString(value, key);
  if (Array.isArray(value)) {
    if (value.length === 0) return { kind: 'empty', description: 'empty list' };
    return value.every(isChip) ? { kind: 'chips', items: value } : { kind: 'list', items: value };
  }
  if (isJsonObject(value)) {
    const entries = Object.entries(value);
    return entries.length === 0 ? { kind: 'empty', description: 'empty object' } : { kind: 'object', entries };
  }
  return { kind: 'text', text: String(value) };
}
