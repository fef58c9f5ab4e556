/**
 * The promise of editing: any product the editor can create, once created on the sandbox and read back
 * from it, and opened again in the editor, is sent back unchanged by a save with no edit: nothing
 * read-only, an empty diff, no body. The browser's model (src/features/products/model) against the real
 * sandbox, in process: the one test of server/ allowed to import it (.dependency-cruiser.cjs).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EPOCH_SECONDS } from '../../src/contract/identifiers';
import { readProductRecord, type WireProductUpdate } from '../../src/contract/products';
import { MAX_MINOR_UNITS, validateProduct } from '../../src/contract/rules';
import { siteInfoOf } from '../../src/contract/site-info';
import type { SiteConfig } from '../../src/contract/site-profile';
import { CURRENCIES, OPTION_PRICE_TIERS, PRODUCT_PRICE_TIERS } from '../../src/contract/site-api';
import { encodeProduct, settingsForSite, type ProductSettings } from '../../src/features/products/model/codec';
import { epochToLocalDateTime } from '../../src/features/products/model/dates';
import { formatMinor, type PriceDecimals } from '../../src/features/products/model/money';
import { openForEdit } from '../../src/features/products/model/open-for-edit';
import { diffProduct } from '../../src/features/products/model/product-diff';
import { newKey, type PriceGrid, type ProductForm } from '../../src/features/products/model/product-form';
import { createSandboxApp } from './app';
import { openStore, type SandboxStore } from './store';

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

let store: SandboxStore;
let app: ReturnType<typeof createSandboxApp>;
beforeAll(() => {
  store = openStore(':memory:', ['1001'], { demoProducts: false });
  app = createSandboxApp({ store, apiKey: 'k', siteIds: ['1001'] });
});
afterAll(() => store.close());

const AUTH = { 'x-api-key': 'k', 'x-site-id': '1001' } as const;
let created = 0;

/** Created on the sandbox and read back from it, as the editor reads a product (its own reader). */
async function storeAndRead(body: WireProductUpdate) {
  // Slugs are unique on a site: each run's product gets its own where the form left it to the platform.
  created += 1;
  const sent = { ...body, slug: body.slug ? `${body.slug}-${created}` : `p-${created}` };
  const answer = await app.request('/api/site/v2/ecommerce/products/create', {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(sent),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  const { id } = (await answer.json()) as { id: string };
  const read = await app.request(`/api/site/v2/ecommerce/products/${id}`, { headers: AUTH });
  expect(read.status).toBe(200);
  const reading = readProductRecord(JSON.parse(await read.text()));
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
  ])('is sent back unchanged by a save with no edit (%s)', async (_, site) => {
    const settings: ProductSettings = settingsForSite(locale, siteInfoOf(site));
    await fc.assert(
      fc.asyncProperty(productForm(locale, settings.decimals), async (form) => {
        const { body, problems } = encodeProduct(form, settings);
        expect(problems).toEqual([]);
        // Only what the editor lets a person create: what the create's rules accept (the expiry after the release, ...).
        fc.pre(validateProduct(body).ok);
        // A create's body: no attribute or option carries an id.
        expect((body.attributes ?? []).flatMap((a) => [a.id, ...(a.items ?? []).map((o) => o.id)]).filter(Boolean)).toEqual([]);
        const { record, unknown } = await storeAndRead(body);
        expect(unknown).toEqual([]);
        const opened = openForEdit(record, unknown, settings);
        expect(opened.readOnly).toEqual([]);
        expect(diffProduct(record, opened.form, settings)).toEqual({ changes: [], body: null, problems: [] });
      }),
      { numRuns: 80 },
    );
  });
});
