/**
 * The promise of editing: any product the editor can create, once stored by the platform and opened
 * again, is sent back unchanged by a save with no edit: nothing read-only, an empty diff, no body.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import { readProductRecord, type WireProductUpdate } from '@/contract/products';
import { MAX_MINOR_UNITS } from '@/contract/rules';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { CURRENCIES, OPTION_PRICE_TIERS, PRODUCT_PRICE_TIERS } from '@/contract/site-api';
import { encodeProduct, settingsForSite, type ProductSettings } from './codec';
import { epochToLocalDateTime } from './dates';
import { formatMinor, type PriceDecimals } from './money';
import { openForEdit } from './open-for-edit';
import { diffProduct } from './product-diff';
import { newKey, type PriceGrid, type ProductForm } from './product-form';

// A zone with daylight saving and far from UTC: dates typed in the gap or the repeated hour are covered.
let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = 'Pacific/Auckland';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const LOCALES = ['en-US', 'en-GB', 'de-DE'] as const;
type Locale = (typeof LOCALES)[number];

/** Any text, as typed (spaces and line breaks included). */
const typed = fc.string({ maxLength: 16, unit: fc.constantFrom('a', 'Z', 'é', ' ', '\n', '-', '1', '✓') });
const nonBlank = typed.filter((s) => s.trim() !== '');
const spaced = (inner: fc.Arbitrary<string>) =>
  fc.tuple(fc.constantFrom('', ' ', '  '), inner, fc.constantFrom('', ' ')).map(([a, b, c]) => `${a}${b}${c}`);
const wholeNumber = (min: number, max: number) => spaced(fc.integer({ min, max }).map(String));

/** A price as a person types it in the locale: canonical, grouped in the locale's way, or without decimals. */
function price(locale: Locale, decimals: PriceDecimals): fc.Arbitrary<string> {
  const cell = fc
    .integer({ min: 0, max: MAX_MINOR_UNITS })
    .chain((minor) =>
      fc.constantFrom(
        formatMinor(minor, decimals),
        new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
          formatMinor(minor, decimals) as Intl.StringNumericLiteral,
        ),
        ...(minor % 10 ** decimals === 0 ? [String(minor / 10 ** decimals)] : []),
      ),
    );
  return fc.oneof(fc.constant(''), cell);
}

/** A date as a person types it: the field's own text, a day alone, or the locale's numeric order with a time. */
function date(locale: Locale): fc.Arbitrary<string> {
  const typedDate = fc.integer({ min: 2 * 86400, max: MAX_EPOCH_SECONDS - 2 * 86400 }).chain((epoch) => {
    const local = epochToLocalDateTime(epoch);
    const [y, m, d] = [local.slice(0, 4), local.slice(5, 7), local.slice(8, 10)];
    const time = local.slice(11, 16);
    const numeric = locale === 'en-US' ? `${Number(m)}/${Number(d)}/${y}` : locale === 'en-GB' ? `${d}/${m}/${y}` : `${d}.${m}.${y}`;
    return fc.constantFrom(local, local.slice(0, 10), `${numeric} ${time}`, numeric);
  });
  return fc.oneof(fc.constant(''), typedDate);
}

function grid(tiers: number, cell: fc.Arbitrary<string>): fc.Arbitrary<PriceGrid> {
  const row = fc.array(cell, { minLength: tiers, maxLength: tiers });
  return fc.record(Object.fromEntries(CURRENCIES.map((c) => [c, row])) as Record<(typeof CURRENCIES)[number], fc.Arbitrary<string[]>>);
}

/** Any product the editor can create in the locale: new attributes and options (no ids), every field as typed. */
function productForm(locale: Locale, decimals: PriceDecimals): fc.Arbitrary<ProductForm> {
  const money = price(locale, decimals);
  const option = fc.record({
    name: nonBlank,
    enabled: fc.boolean(),
    fields: fc.array(typed, { minLength: 4, maxLength: 4 }),
    prices: grid(OPTION_PRICE_TIERS.length, money),
    inventory: fc.oneof(fc.constant(''), wholeNumber(0, 99999)),
  });
  const attribute = fc.record({ name: nonBlank, enabled: fc.boolean(), options: fc.array(option, { maxLength: 4 }) });
  return fc
    .record({
      name: nonBlank,
      slug: fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9]{1,8}(?:-[a-z0-9]{1,8}){0,2}$/)),
      enabled: fc.boolean(),
      weighting: fc.oneof(fc.constant(''), wholeNumber(-9999, 9999)),
      releaseAt: date(locale),
      expiryAt: date(locale),
      categories: fc.array(spaced(fc.integer({ min: 1, max: 999999 }).map(String)), { maxLength: 3 }),
      secureZones: fc.array(spaced(fc.integer({ min: 1, max: 999999 }).map(String)), { maxLength: 2 }),
      fields: fc.array(typed, { minLength: 5, maxLength: 5 }),
      inventory: fc.array(typed, { minLength: 3, maxLength: 3 }),
      prices: grid(PRODUCT_PRICE_TIERS.length, money),
      attributes: fc.array(attribute, { maxLength: 3 }),
    })
    .map((form) => ({
      ...form,
      slugEdited: form.slug !== '',
      attributes: form.attributes.map((a) => ({
        ...a,
        key: newKey(),
        id: '',
        options: a.options.map((o) => ({ ...o, key: newKey(), id: '' })),
      })),
    }));
}

let nextId = 1000;
/**
 * Stored and read back as the sandbox does it: the body kept as JSON text, an id given to the product
 * and to each attribute and option, the platform's dates added, and the answer read by the browser's
 * reader. (The sandbox's store itself lives in server/, which this browser-side code may not import.)
 */
function storeAndRead(body: WireProductUpdate) {
  const stored = JSON.parse(JSON.stringify(body)) as Record<string, unknown> & { attributes?: Record<string, unknown>[] };
  const now = '1767225600';
  const meta = () => ({ id: String((nextId += 1)), created_at: now, updated_at: now });
  const answer = {
    ...meta(),
    ...stored,
    ...(stored.attributes
      ? {
          attributes: stored.attributes.map((attribute) => ({
            ...meta(),
            ...attribute,
            ...(Array.isArray(attribute.items) ? { items: (attribute.items as object[]).map((item) => ({ ...meta(), ...item })) } : {}),
          })),
        }
      : {}),
  };
  const reading = readProductRecord(JSON.parse(JSON.stringify(answer)));
  if (!reading.ok) throw new Error(reading.problem);
  return reading;
}

const ALL_CURRENCIES: SiteConfig = { id: 'a', name: 'A', platform: { sandbox: true, siteId: '1' } };
const FOUR_DECIMALS_TWO_CURRENCIES: SiteConfig = {
  id: 'b',
  name: 'B',
  platform: { sandbox: true, siteId: '2' },
  money: { currencies: ['eur', 'gbp'], decimals: 4 },
  labels: { priceTiers: { '4': { hidden: true } } },
};

describe.each(LOCALES)('a product created in %s, stored and opened again', (locale) => {
  it.each([
    ['2 decimals, every currency', ALL_CURRENCIES],
    ['4 decimals, two currencies, a hidden tier', FOUR_DECIMALS_TWO_CURRENCIES],
  ])('is sent back unchanged by a save with no edit (%s)', (_, site) => {
    const settings: ProductSettings = settingsForSite(locale, siteInfoOf(site));
    fc.assert(
      fc.property(productForm(locale, settings.decimals), (form) => {
        const { body, problems } = encodeProduct(form, settings);
        expect(problems).toEqual([]);
        // A create's body: no attribute or option carries an id.
        expect((body.attributes ?? []).flatMap((a) => [a.id, ...(a.items ?? []).map((o) => o.id)]).filter(Boolean)).toEqual([]);
        const { record, unknown } = storeAndRead(body);
        expect(unknown).toEqual([]);
        const opened = openForEdit(record, unknown, settings);
        expect(opened.readOnly).toEqual([]);
        expect(diffProduct(record, opened.form, settings)).toEqual({ changes: [], body: null, problems: [] });
      }),
      { numRuns: 120 },
    );
  });
});
