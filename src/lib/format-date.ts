/**
 * The one way the app writes a date for people: in the viewer's own locale and time zone (or those
 * given), through Intl; formatters are made once and reused. Every screen uses these (or `<DateTime>`),
 * so a date reads the same wherever it appears.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter for a style, made once: a case of hundreds of dates asks for the same few formats. */
function dateFormat(style: 'short' | 'exact', dateOnly: boolean, locale?: string, timeZone?: string): Intl.DateTimeFormat {
  // A calendar date is shown in UTC, whatever zone is asked for.
  const zone = dateOnly ? 'UTC' : timeZone;
  const cacheKey = `${style}|${dateOnly ? 'day' : 'moment'}|${locale ?? ''}|${zone ?? ''}`;
  let format = formatters.get(cacheKey);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'short'
        ? { dateStyle: 'medium', timeStyle: dateOnly ? undefined : 'short', timeZone: zone }
        : { dateStyle: 'full', timeStyle: dateOnly ? undefined : 'long', timeZone: zone };
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(cacheKey, format);
  }
  return format;
}

export interface DateOptions {
  /** A calendar date without a time: shown in UTC so it is the same day everywhere. */
  dateOnly?: boolean;
  locale?: string;
  timeZone?: string;
}

/** Short exact form for tables, e.g. "1 Nov 2025, 13:00". */
export function formatDate(date: Date, { dateOnly = false, locale, timeZone }: DateOptions = {}): string {
  return dateFormat('short', dateOnly, locale, timeZone).format(date);
}

/** Full exact form with the time zone, for the hover text, e.g. "Saturday 1 November 2025 at 13:00:00 NZDT". */
export function formatExactDate(date: Date, { dateOnly = false, locale, timeZone }: DateOptions = {}): string {
  return dateFormat('exact', dateOnly, locale, timeZone).format(date);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 months ago", "in 2 days", "now": the largest unit that fits. */
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

export function formatRelative(date: Date, now: number, locale?: string): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  let format = relativeFormats.get(locale ?? '');
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale ?? '', format);
  }
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/** The `dateTime` attribute of a `<time>` element. */
export function machineDate(date: Date, dateOnly = false): string {
  const iso = date.toISOString();
  return dateOnly ? iso.slice(0, 10) : iso;
}
