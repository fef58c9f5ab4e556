/**
 * Prices: the wire carries minor units as integer strings; the editor shows and accepts major units.
 * How many decimal places a price has is a setting of the site (platform-notes: "Pricing Accuracy", 2 or
 * 4), the same for every currency; the minor-unit scale is 10^decimals. One parser serves typing,
 * pasting and sending, so a cell reads the same however its text arrived. Ours, not NumberParser, which
 * reads "19.99" in de-DE as 1999 and gives no reasons: docs/decisions/0007-own-money-and-date-parsers.md.
 */
import { MAX_MINOR_UNITS } from '@/contract/rules';
import { CURRENCIES, type Currency } from '@/contract/site-api';

/** Decimal places of a site's prices; 2 unless its site profile says 4. */
export type PriceDecimals = 2 | 4;
export const DEFAULT_PRICE_DECIMALS: PriceDecimals = 2;

/** minor null = a blank cell (left out of the body). */
export type MoneyParse = { ok: true; minor: number | null } | { ok: false; reason: string };

export const MONEY_REASONS = {
  notANumber: 'Not an amount: use digits, e.g. 19.99',
  negative: 'A price cannot be negative',
  tooManyDecimals: 'At most 2 decimal places',
  tooManyDecimals4: 'At most 4 decimal places',
  severalDecimalSeparators: 'More than one decimal separator',
  grouping: 'Thousands separators are in the wrong place',
  tooLarge: 'Too large: at most 9999999999.99',
  tooLarge4: 'Too large: at most 99999999.9999',
  mixedCurrencies: 'Names two different currencies',
} as const;

const fail = (reason: string): MoneyParse => ({ ok: false, reason });

// Markers of a currency as people type them and as Intl formats them in common locales:
// "$", "NZ$", "$NZ", "$ US", "€", "£", "£GB", "USD". "$" alone is any dollar currency.
const DOLLAR_PREFIX: Readonly<Record<string, Currency>> = { A: 'aud', AU: 'aud', C: 'cad', CA: 'cad', NZ: 'nzd', US: 'usd' };
const DOLLARS: readonly Currency[] = ['aud', 'cad', 'nzd', 'usd'];
const CODES = CURRENCIES.map((c) => c.toUpperCase()).join('|');
const MARKER = `(?:${CODES}|(?:A|AU|C|CA|NZ|US)?\\$(?:\\s?(?:AU|CA|NZ|US)(?![A-Z]))?|€|£(?:GB)?)`;
const PREFIX_MARKER = new RegExp(`^${MARKER}`, 'i');
const SUFFIX_MARKER = new RegExp(`${MARKER}$`, 'i');

/** The currencies a marker can mean. */
function markerCurrencies(marker: string): readonly Currency[] {
  const m = marker.toUpperCase().replace(/\s/g, '');
  if (m === '€') return ['eur'];
  if (m.startsWith('£')) return ['gbp'];
  const code = CURRENCIES.find((c) => c.toUpperCase() === m);
  if (code) return [code];
  const [before = '', after = ''] = m.split('$');
  const named = DOLLAR_PREFIX[before || after];
  return named ? [named] : DOLLARS;
}

type SeparatorKind = '.' | ',' | 'space' | 'apostrophe';

function separatorKind(ch: string): SeparatorKind | null {
  if (ch === '.' || ch === ',') return ch;
  // Space, no-break space (fr-FR before 2018), narrow no-break space (fr-FR now), thin space.
  if (/^\s$/u.test(ch)) return 'space';
  if (ch === "'" || ch === '’') return 'apostrophe'; // de-CH
  return null;
}

const localeDecimals = new Map<string, string>();
/** The locale's decimal separator; "." when the locale is unknown to Intl. */
function decimalSeparatorOf(locale: string): string {
  let sep = localeDecimals.get(locale);
  if (sep === undefined) {
    try {
      sep = new Intl.NumberFormat(locale).formatToParts(1.1).find((p) => p.type === 'decimal')?.value ?? '.';
    } catch {
      sep = '.';
    }
    localeDecimals.set(locale, sep);
  }
  return sep;
}

/**
 * Reads a price typed or pasted in major units: "1,299.00", "1.299,00", "€ 12,50", "1 299,00", "NZ$5", "12.".
 * A single "." or "," followed by exactly three digits ("1,299") is a thousands separator unless it is the
 * locale's decimal separator, in which case it is three decimal places, an error. When `currency` is given,
 * a marker of another currency ("€5" in the USD column) is an error rather than a silent conversion.
 */
export function parseMoney(text: string, locale = 'en', currency?: Currency, decimals: PriceDecimals = DEFAULT_PRICE_DECIMALS): MoneyParse {
  let s = text.trim();
  if (s === '') return { ok: true, minor: null };

  let negative = false;
  const paren = /^\((.*)\)$/su.exec(s);
  if (paren) {
    negative = true;
    s = (paren[1] ?? '').trim();
  }
  const stripSign = () => {
    const sign = /^[-−‐–]\s*|\s*[-−‐–]$/u.exec(s);
    if (sign) {
      negative = true;
      s = s.slice(0, sign.index) + s.slice(sign.index + sign[0].length);
    }
  };
  stripSign();

  const markers: string[] = [];
  const prefix = PREFIX_MARKER.exec(s);
  if (prefix) {
    markers.push(prefix[0]);
    s = s.slice(prefix[0].length).trim();
  }
  const suffix = SUFFIX_MARKER.exec(s);
  if (suffix && suffix.index > 0) {
    markers.push(suffix[0]);
    s = s.slice(0, suffix.index).trim();
  }
  stripSign();

  if (s === '' || !/^[\d.,'’\s]+$/u.test(s)) return fail(MONEY_REASONS.notANumber);

  let possible: readonly Currency[] = CURRENCIES;
  for (const marker of markers) {
    const means = markerCurrencies(marker);
    possible = possible.filter((c) => means.includes(c));
  }
  if (possible.length === 0) return fail(MONEY_REASONS.mixedCurrencies);
  if (currency && !possible.includes(currency)) {
    return fail(`This is a price in ${possible.map((c) => c.toUpperCase()).join(' or ')}, not ${currency.toUpperCase()}`);
  }
  if (negative) return fail(MONEY_REASONS.negative);

  const number = readDigits(s, decimalSeparatorOf(locale));
  if (!number.ok) return number;
  const { whole, fraction } = number;
  const four = decimals === 4;
  if (fraction.length > decimals) return fail(four ? MONEY_REASONS.tooManyDecimals4 : MONEY_REASONS.tooManyDecimals);
  const significant = whole.replace(/^0+/, '');
  const tooLarge = four ? MONEY_REASONS.tooLarge4 : MONEY_REASONS.tooLarge;
  if (significant.length > 12 - decimals) return fail(tooLarge);
  const minor = Number(significant || '0') * 10 ** decimals + Number(fraction.padEnd(decimals, '0'));
  if (minor > MAX_MINOR_UNITS) return fail(tooLarge);
  return { ok: true, minor };
}

type Digits = { ok: true; whole: string; fraction: string } | { ok: false; reason: string };

/** Splits digits and separators, decides which separator (if any) is the decimal one, checks grouping. */
function readDigits(s: string, localeDecimal: string): Digits {
  // runs[i] and runs[i + 1] are joined by seps[i]; a leading or trailing separator leaves an empty run.
  const runs: string[] = [];
  const seps: SeparatorKind[] = [];
  let run = '';
  for (const ch of s) {
    if (ch >= '0' && ch <= '9') {
      run += ch;
      continue;
    }
    const kind = separatorKind(ch);
    if (kind === null) return { ok: false, reason: MONEY_REASONS.notANumber };
    // Two separators in a row ("1,,000", "1 ,5") group nothing.
    if (run === '' && runs.length > 0) return { ok: false, reason: MONEY_REASONS.grouping };
    runs.push(run);
    seps.push(kind);
    run = '';
  }
  runs.push(run);

  const marks = seps.flatMap((kind, i) => (kind === '.' || kind === ',' ? [i] : []));
  let decimalAt = -1;
  const last = marks.at(-1);
  if (last !== undefined) {
    const lastKind = seps[last];
    const sameKind = marks.filter((i) => seps[i] === lastKind).length;
    const otherKinds = seps.some((kind) => kind !== lastKind);
    if (sameKind > 1) {
      // "1,234,567" is grouping; "1,234.5.6" has two candidates for the decimal point.
      if (marks.some((i) => seps[i] !== lastKind)) return { ok: false, reason: MONEY_REASONS.severalDecimalSeparators };
    } else if (otherKinds) {
      decimalAt = last; // "1,299.00", "1 299,00": another separator already does the grouping.
    } else {
      const before = runs[last] ?? '';
      const after = runs[last + 1] ?? '';
      const looksGrouped = after.length === 3 && before.length >= 1 && before.length <= 3 && !before.startsWith('0');
      decimalAt = looksGrouped && lastKind !== localeDecimal ? -1 : last;
    }
  }

  const wholeRuns = decimalAt === -1 ? runs : runs.slice(0, decimalAt + 1);
  const wholeSeps = decimalAt === -1 ? seps : seps.slice(0, decimalAt);
  const fractionRuns = decimalAt === -1 ? [] : runs.slice(decimalAt + 1);
  if (fractionRuns.length > 1) return { ok: false, reason: MONEY_REASONS.grouping };
  const fraction = fractionRuns[0] ?? '';

  if (wholeSeps.length > 0) {
    const [first = '', ...rest] = wholeRuns;
    const oneKind = wholeSeps.every((kind) => kind === wholeSeps[0]);
    const grouped = first.length >= 1 && first.length <= 3 && !first.startsWith('0') && rest.every((r) => r.length === 3);
    if (!oneKind || !grouped) {
      // "1.2.3" in en: the locale's decimal separator, repeated, reads as several decimal points.
      const repeatedDecimal = oneKind && decimalAt === -1 && wholeSeps[0] === localeDecimal;
      return { ok: false, reason: repeatedDecimal ? MONEY_REASONS.severalDecimalSeparators : MONEY_REASONS.grouping };
    }
  }
  const whole = wholeRuns.join('');
  if (whole === '' && fraction === '') return { ok: false, reason: MONEY_REASONS.notANumber };
  return { ok: true, whole, fraction };
}

function assertMinor(minor: number): void {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units`);
}

/**
 * Canonical major-unit text for a cell: 1999 → "19.99", 5 → "0.05" (4 decimals: 5 → "0.0005"). Never
 * grouped, and always with every decimal place, so the parser reads it back the same in any locale.
 */
export function formatMinor(minor: number, decimals: PriceDecimals = DEFAULT_PRICE_DECIMALS): string {
  assertMinor(minor);
  const digits = String(Math.abs(minor)).padStart(decimals + 1, '0');
  return `${minor < 0 ? '-' : ''}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** Display text with the locale's currency formatting, e.g. "NZ$19.99" (en) or "19,99 $NZ" (fr-FR). */
export function formatMoney(minor: number, currency: Currency, locale?: string, decimals: PriceDecimals = DEFAULT_PRICE_DECIMALS): string {
  const key = `${locale ?? ''}|${currency}|${decimals}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: currency.toUpperCase(),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    moneyFormats.set(key, format);
  }
  // A decimal string keeps large amounts exact, where minor / 100 would go through binary floating point.
  return format.format(formatMinor(minor, decimals) as Intl.StringNumericLiteral);
}

/**
 * Formatters by locale, currency and decimals: making one costs about 30 µs, formatting with it under
 * 1 µs, and a diff of a large product formats a thousand prices (1,000 calls: 33 ms before, 0.4 ms after).
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();
