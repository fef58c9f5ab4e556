import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MINOR_UNITS, validateProduct } from '@/contract/rules';
import { CURRENCIES, productPriceKey } from '@/contract/site-api';
import { MONEY_REASONS, formatMinor, formatMoney, parseMoney } from './money';

const LOCALES = ['en', 'en-US', 'en-GB', 'de-DE', 'fr-FR', 'en-NZ'] as const;
const NBSP = '\u00a0';
const NARROW_NBSP = '\u202f';

describe('parseMoney: readable amounts', () => {
  // [text, locale, minor units]; null = blank cell.
  const cases: [string, string, number | null][] = [
    ['1,299.00', 'en', 129900],
    ['1.299,00', 'en', 129900],
    ['$12', 'en', 1200],
    ['12', 'en', 1200],
    [' 7.5 ', 'en', 750],
    ['€ 12,50', 'en', 1250],
    [`1${NBSP}299,00`, 'en', 129900],
    [`1${NARROW_NBSP}299,00`, 'en', 129900],
    ['1 299,00', 'en', 129900],
    ['NZ$5', 'en', 500],
    ['USD 5', 'en', 500],
    ['5 USD', 'en', 500],
    ['5 usd', 'en', 500],
    ['12.', 'en', 1200],
    ['.5', 'en', 50],
    ['0', 'en', 0],
    ['0.01', 'en', 1],
    ['', 'en', null],
    ['   ', 'en', null],
    ['1,299', 'en', 129900],
    ['1,234,567.89', 'en', 123456789],
    ['1.234.567', 'en', 123456700],
    ['12,5', 'en', 1250],
    ['1,299', 'en-NZ', 129900],
    ['$1,299.95', 'en-NZ', 129995],
    ['1.299', 'de-DE', 129900],
    ['1.299,95', 'de-DE', 129995],
    ['19.99', 'de-DE', 1999],
    ['12,50 €', 'de-DE', 1250],
    [`1${NARROW_NBSP}299,95${NARROW_NBSP}€`, 'fr-FR', 129995],
    [`12,50${NBSP}$NZ`, 'fr-FR', 1250],
    ['1.299', 'fr-FR', 129900],
    ["1'234.50", 'de-CH', 123450],
    ['9999999999.99', 'en', MAX_MINOR_UNITS],
    ['0009.99', 'en', 999],
    ['5', 'not a locale!', 500],
  ];
  it.each(cases)('%j in %s → %j', (text, locale, minor) => {
    expect(parseMoney(text, locale)).toEqual({ ok: true, minor });
  });
});

describe('parseMoney: errors, never a silent 0 or truncation', () => {
  const cases: [string, string, string][] = [
    ['-5', 'en', MONEY_REASONS.negative],
    ['−5', 'en', MONEY_REASONS.negative],
    ['(5)', 'en', MONEY_REASONS.negative],
    ['-$5', 'en', MONEY_REASONS.negative],
    ['$-5', 'en', MONEY_REASONS.negative],
    ['5-', 'en', MONEY_REASONS.negative],
    ['12.345', 'en', MONEY_REASONS.tooManyDecimals],
    ['1.299', 'en', MONEY_REASONS.tooManyDecimals],
    ['1.299', 'en-NZ', MONEY_REASONS.tooManyDecimals],
    ['1,299', 'de-DE', MONEY_REASONS.tooManyDecimals],
    ['1,299', 'fr-FR', MONEY_REASONS.tooManyDecimals],
    ['0.125', 'de-DE', MONEY_REASONS.tooManyDecimals],
    ['.125', 'de-DE', MONEY_REASONS.tooManyDecimals],
    ['abc', 'en', MONEY_REASONS.notANumber],
    ['12a', 'en', MONEY_REASONS.notANumber],
    ['1e5', 'en', MONEY_REASONS.notANumber],
    ['$', 'en', MONEY_REASONS.notANumber],
    ['.', 'en', MONEY_REASONS.notANumber],
    ['1.2.3', 'en', MONEY_REASONS.severalDecimalSeparators],
    ['1,234.5.6', 'en', MONEY_REASONS.severalDecimalSeparators],
    ['1,2,3', 'de-DE', MONEY_REASONS.severalDecimalSeparators],
    ['1,2,3', 'en', MONEY_REASONS.grouping],
    ['12,34,567', 'en', MONEY_REASONS.grouping],
    ['1,,000', 'en', MONEY_REASONS.grouping],
    ['12 50', 'en', MONEY_REASONS.grouping],
    ['1,5 000', 'en', MONEY_REASONS.grouping],
    ['1 299.000', 'en', MONEY_REASONS.tooManyDecimals],
    ['10000000000', 'en', MONEY_REASONS.tooLarge],
    ['99999999999999999999999', 'en', MONEY_REASONS.tooLarge],
    ['$5 €', 'en', MONEY_REASONS.mixedCurrencies],
  ];
  it.each(cases)('%j in %s → %s', (text, locale, reason) => {
    expect(parseMoney(text, locale)).toEqual({ ok: false, reason });
  });

  it('rejects a marker of another currency than the column expects', () => {
    expect(parseMoney('€5', 'en', 'usd')).toEqual({ ok: false, reason: 'This is a price in EUR, not USD' });
    expect(parseMoney('NZ$5', 'en', 'usd')).toEqual({ ok: false, reason: 'This is a price in NZD, not USD' });
    expect(parseMoney('$5', 'en', 'gbp')).toMatchObject({ ok: false });
    // "$" alone is any dollar currency.
    expect(parseMoney('$5', 'en', 'aud')).toEqual({ ok: true, minor: 500 });
    expect(parseMoney('5', 'en', 'gbp')).toEqual({ ok: true, minor: 500 });
  });
});

describe('formatMinor', () => {
  it.each([
    [1999, '19.99'],
    [1200, '12.00'],
    [5, '0.05'],
    [0, '0.00'],
    [MAX_MINOR_UNITS, '9999999999.99'],
  ])('%i → %s', (minor, text) => expect(formatMinor(minor)).toBe(text));

  it('refuses a fraction of a minor unit', () => {
    expect(() => formatMinor(1.5)).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it('formats with the locale’s currency conventions', () => {
    expect(formatMoney(1999, 'usd', 'en-US')).toBe('$19.99');
    expect(formatMoney(1999, 'nzd', 'en-NZ')).toBe('$19.99');
    expect(formatMoney(1999, 'nzd', 'en')).toBe('NZ$19.99');
    expect(formatMoney(129900, 'eur', 'de-DE')).toBe(`1.299,00${NBSP}€`);
  });

  it('is exact at the largest amount', () => {
    expect(formatMoney(MAX_MINOR_UNITS, 'gbp', 'en')).toBe('£9,999,999,999.99');
  });

  it('parses back in every locale, currency included', () => {
    for (const locale of LOCALES) {
      for (const currency of CURRENCIES) {
        for (const minor of [0, 5, 1999, 129900, 123456789, MAX_MINOR_UNITS]) {
          expect(parseMoney(formatMoney(minor, currency, locale), locale, currency), `${locale} ${currency} ${minor}`).toEqual({
            ok: true,
            minor,
          });
        }
      }
    }
  });
});

describe('properties', () => {
  const minor = fc.integer({ min: 0, max: MAX_MINOR_UNITS });

  it('parseMoney(formatMinor(n)) = n for every amount, in every locale', () => {
    fc.assert(
      fc.property(minor, fc.constantFrom(...LOCALES), (n, locale) => {
        expect(parseMoney(formatMinor(n), locale)).toEqual({ ok: true, minor: n });
      }),
      { numRuns: 500 },
    );
  });

  it('every text either reads as a contract-valid price or gives a reason', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.,- $€()a'.split('')) }), (text) => {
        const parsed = parseMoney(text);
        if (!parsed.ok) expect(parsed.reason).not.toBe('');
        else if (parsed.minor !== null) expect(Number.isSafeInteger(parsed.minor) && parsed.minor >= 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('MAX_MINOR_UNITS is the contract’s limit', () => {
  const priced = (value: string) => validateProduct({ name: 'x', [productPriceKey('usd', 1)]: value });
  it('the contract accepts it and refuses one more', () => {
    expect(priced(String(MAX_MINOR_UNITS)).ok).toBe(true);
    expect(priced(String(MAX_MINOR_UNITS + 1)).ok).toBe(false);
  });
});

describe('one text, one amount per locale', () => {
  // The text a person types; what each locale reads it as (minor units) or why it cannot.
  const table: [string, Record<'en-US' | 'en-GB' | 'de-DE' | 'fr-FR', number | string>][] = [
    ['1,299', { 'en-US': 129900, 'en-GB': 129900, 'de-DE': MONEY_REASONS.tooManyDecimals, 'fr-FR': MONEY_REASONS.tooManyDecimals }],
    ['1.299', { 'en-US': MONEY_REASONS.tooManyDecimals, 'en-GB': MONEY_REASONS.tooManyDecimals, 'de-DE': 129900, 'fr-FR': 129900 }],
    ['1,5', { 'en-US': 150, 'en-GB': 150, 'de-DE': 150, 'fr-FR': 150 }],
    ['1.299,95', { 'en-US': 129995, 'en-GB': 129995, 'de-DE': 129995, 'fr-FR': 129995 }],
    ['1,299.95', { 'en-US': 129995, 'en-GB': 129995, 'de-DE': 129995, 'fr-FR': 129995 }],
  ];
  it.each(table)('%j', (text, expected) => {
    for (const [locale, want] of Object.entries(expected)) {
      const parsed = parseMoney(text, locale, 'eur');
      expect(parsed, locale).toEqual(typeof want === 'number' ? { ok: true, minor: want } : { ok: false, reason: want });
    }
  });
});

describe('four decimal places (a site whose prices have 4)', () => {
  it('reads and writes ten-thousandths', () => {
    expect(parseMoney('19.99', 'en-US', 'usd', 4)).toEqual({ ok: true, minor: 199900 });
    expect(parseMoney('0,0005', 'de-DE', 'eur', 4)).toEqual({ ok: true, minor: 5 });
    expect(parseMoney('1.2345', 'en-US', 'usd', 4)).toEqual({ ok: true, minor: 12345 });
    expect(parseMoney('1.23456', 'en-US', 'usd', 4)).toEqual({ ok: false, reason: MONEY_REASONS.tooManyDecimals4 });
    expect(formatMinor(5, 4)).toBe('0.0005');
    expect(formatMinor(199900, 4)).toBe('19.9900');
    expect(formatMoney(12345, 'aud', 'en-AU', 4)).toBe('$1.2345');
  });

  it('keeps the contract’s limit of 12 digits of minor units', () => {
    expect(parseMoney('99999999.9999', 'en', 'usd', 4)).toEqual({ ok: true, minor: MAX_MINOR_UNITS });
    expect(parseMoney('100000000', 'en', 'usd', 4)).toEqual({ ok: false, reason: MONEY_REASONS.tooLarge4 });
  });

  it('parseMoney(formatMinor(n, 4), locale, _, 4) = n in every locale', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_MINOR_UNITS }), fc.constantFrom(...LOCALES), (n, locale) => {
        expect(parseMoney(formatMinor(n, 4), locale, undefined, 4)).toEqual({ ok: true, minor: n });
      }),
      { numRuns: 300 },
    );
  });
});
