/**
 * The editor's dates: what a person types (or picks) in a date field, read in the browser's time zone;
 * the wire carries Unix epoch seconds (platform-notes). A date alone means the start of that day. Text
 * that is not a whole, real date in range is an error on the field, never dropped. Ours, because
 * @internationalized/date reads ISO 8601 only: docs/decisions/0007-own-money-and-date-parsers.md.
 */
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';

export type DateParse = { ok: true; epoch: null } | { ok: true; epoch: number; dateOnly: boolean } | { ok: false; reason: string };

export const DATE_REASONS = {
  unreadable: 'Not a date: type it as YYYY-MM-DD (e.g. 2026-03-01), optionally followed by a time such as 14:30',
  yearDigits: 'The year must have four digits',
  notReal: 'There is no such date',
  notRealTime: 'There is no such time of day',
  beforeEpoch: 'Must be 1970 or later',
} as const;

const fail = (reason: string): DateParse => ({ ok: false, reason });

const ISO = /^(\d+)-(\d{1,2})-(\d{1,2})(?:[T\s]+(.+))?$/u;
const NUMERIC = /^(\d+)([./-])(\d+)\2(\d+)(?:[,\s]+(.+))?$/u;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?$/iu;

const orders = new Map<string, ('day' | 'month' | 'year')[]>();
/** The order a locale writes day, month and year in ("de-DE": day month year; "en-US": month day year). */
function numericOrder(locale: string): ('day' | 'month' | 'year')[] {
  let order = orders.get(locale);
  if (!order) {
    let parts: Intl.DateTimeFormatPart[] = [];
    try {
      parts = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date(2001, 10, 22));
    } catch {
      parts = [];
    }
    const found = parts.map((p) => p.type).filter((t): t is 'day' | 'month' | 'year' => t === 'day' || t === 'month' || t === 'year');
    order = found.length === 3 ? found : ['year', 'month', 'day'];
    orders.set(locale, order);
  }
  return order;
}

function readTime(text: string | undefined): { h: number; m: number; s: number } | 'none' | null {
  if (text === undefined || text.trim() === '') return 'none';
  const match = TIME.exec(text.trim());
  if (!match) return null;
  let h = Number(match[1]);
  const m = Number(match[2]);
  const s = Number(match[3] ?? '0');
  const meridiem = match[4]?.toLowerCase().replace(/\./g, '');
  if (meridiem) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (meridiem === 'pm' ? 12 : 0);
  }
  if (h > 23 || m > 59 || s > 59) return null;
  return { h, m, s };
}

/**
 * Reads a date as people type it: `2026-03-01`, `2026-03-01 14:30`, `2026-03-01T14:30:15`, or in the
 * locale's own numeric order (`01.03.2026 14:30` in de-DE, `3/1/2026 2:30 PM` in en-US), with a four-digit
 * year. Local time of the browser's zone; a wall time skipped by a daylight-saving change becomes the
 * moment the clocks show after it, as Date does.
 */
export function parseDateText(text: string, locale = 'en'): DateParse {
  const s = text.trim();
  if (s === '') return { ok: true, epoch: null };
  let year: string;
  let month: string;
  let day: string;
  let timeText: string | undefined;
  const iso = ISO.exec(s);
  const numeric = iso ? null : NUMERIC.exec(s);
  if (iso) {
    [year, month, day] = [iso[1] ?? '', iso[2] ?? '', iso[3] ?? ''];
    timeText = iso[4];
  } else if (numeric) {
    const values = [numeric[1] ?? '', numeric[3] ?? '', numeric[4] ?? ''];
    // A four-digit first number is a year whatever the locale ("2026/03/01").
    const order = (values[0] ?? '').length >= 3 ? (['year', 'month', 'day'] as const) : numericOrder(locale);
    const at = (part: 'day' | 'month' | 'year') => values[order.indexOf(part)] ?? '';
    [year, month, day] = [at('year'), at('month'), at('day')];
    timeText = numeric[5];
  } else {
    return fail(DATE_REASONS.unreadable);
  }
  if (year.length !== 4) return fail(DATE_REASONS.yearDigits);
  const time = readTime(timeText);
  if (time === null) return fail(timeText && /\d:\d\d/.test(timeText) ? DATE_REASONS.notRealTime : DATE_REASONS.unreadable);
  const clock = time === 'none' ? { h: 0, m: 0, s: 0 } : time;
  const epoch = toEpoch(Number(year), Number(month), Number(day), clock.h, clock.m, clock.s);
  if (epoch === null) return fail(DATE_REASONS.notReal);
  if (epoch < 0) return fail(DATE_REASONS.beforeEpoch);
  if (epoch > MAX_EPOCH_SECONDS) return fail(DATE_REASONS.notReal);
  return { ok: true, epoch, dateOnly: time === 'none' };
}

function toEpoch(year: number, month: number, day: number, hours: number, minutes: number, seconds: number): number | null {
  // setFullYear, not the constructor: the constructor reads years 0 to 99 as 1900 to 1999.
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, month - 1, day);
  date.setHours(hours, minutes, seconds, 0);
  // Date rolls 30 February over into March; a date that rolled over was not a date.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return Math.floor(date.getTime() / 1000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local date-time of an epoch second as the field shows it, e.g. 1767225600 → "2026-01-01 00:00:00" in UTC. */
export function epochToLocalDateTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  if (!Number.isSafeInteger(seconds) || Number.isNaN(date.getTime())) {
    throw new RangeError(`${seconds} is not a date as epoch seconds`);
  }
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The browser's time zone, e.g. "Europe/Berlin". */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * An instant, in words, both in local time (with the zone) and in UTC, so nobody has to wonder which:
 * { local: "Sunday, 1 March 2026 at 00:00:00 (Europe/Berlin)", utc: "2026-02-28 23:00:00 UTC" }.
 */
export function describeInstant(epoch: number, locale?: string): { local: string; utc: string } {
  const date = new Date(epoch * 1000);
  const local = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'medium' }).format(date);
  const iso = date.toISOString();
  return { local: `${local} (${localTimeZone()})`, utc: `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` };
}

/** A picked calendar day ("YYYY-MM-DD"), keeping the time already typed in the field (if any). */
export function withPickedDay(current: string, picked: string): string {
  const time = /[T\s,](\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)\s*$/iu.exec(current.trim());
  return time ? `${picked} ${time[1]}` : picked;
}
