import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import { MAX_MINOR_UNITS, validateProduct } from '@/contract/rules';
import {
  CURRENCIES,
  OPTION_FIELD_KEYS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_KEYS,
  OPTION_PRICE_TIERS,
  PRODUCT_FIELD_KEYS,
  PRODUCT_INVENTORY_KEYS,
  PRODUCT_PRICE_KEYS,
  PRODUCT_PRICE_TIERS,
  optionPriceKey,
  productPriceKey,
  wireProductSchema,
  type WireProduct,
} from '@/contract/site-api';
import { decodeProduct, encodeProduct, settingsForLocale } from './codec';
import { DATE_REASONS, epochToLocalDateTime, parseDateText } from './dates';
import { MONEY_REASONS, formatMinor } from './money';
import {
  emptyAttribute,
  emptyOption,
  emptyPriceGrid,
  emptyProduct,
  productFormSchema,
  type OptionForm,
  type PriceGrid,
  type ProductForm,
} from './product-form';

const EN = settingsForLocale('en-US');
const DE = settingsForLocale('de-DE');

// A zone with daylight saving, so local date-times are not UTC by accident. Date follows process.env.TZ.
let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = 'Pacific/Auckland';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

/** The form without its `key`s, which are fresh on every decode. */
function withoutKeys(form: ProductForm) {
  return {
    ...form,
    attributes: form.attributes.map(({ key: _key, options, ...attribute }) => ({
      ...attribute,
      options: options.map(({ key: _optionKey, ...option }) => option),
    })),
  };
}

function option(edit: Partial<OptionForm>): OptionForm {
  return { ...emptyOption(), ...edit };
}

function grid(tiers: number, cells: Partial<Record<(typeof CURRENCIES)[number], string[]>>): PriceGrid {
  return { ...emptyPriceGrid(tiers === 4 ? 'product' : 'option'), ...cells };
}

describe('encodeProduct', () => {
  it('sends only the name (even blank) and enabled for an empty form', () => {
    expect(encodeProduct(emptyProduct(), EN)).toEqual({ body: { name: '', enabled: 'true' }, problems: [] });
  });

  it('encodes every field of a full form under the spec’s keys', () => {
    const form: ProductForm = {
      ...emptyProduct(),
      name: '  Linen throw ',
      slug: 'linen-throw',
      enabled: false,
      weighting: ' 10 ',
      releaseAt: '2026-01-01 13:00:00',
      expiryAt: '2027-01-01 13:00:00',
      categories: [' 158198 ', '', '158199'],
      secureZones: ['42'],
      fields: ['Soft linen', '/images/throw.jpg', 'SKU-1', '', '  '],
      inventory: ['5', '', 'x'],
      prices: grid(4, { usd: ['19.99', '25', '', ''], eur: ['', '', '', '0'] }),
      attributes: [
        {
          ...emptyAttribute(),
          name: 'Colour',
          options: [
            option({ name: 'Sand', fields: ['a', '', '', 'd'], prices: grid(2, { gbp: ['1.50', ''] }), inventory: '3' }),
            option({ name: 'Olive', enabled: false }),
          ],
        },
        { ...emptyAttribute(), name: 'Size', enabled: false, options: [] },
      ],
    };
    const { body, problems } = encodeProduct(form, EN);
    expect(problems).toEqual([]);
    expect(body).toEqual({
      name: 'Linen throw',
      slug: 'linen-throw',
      enabled: 'false',
      weighting: '10',
      release_date: '1767225600',
      expiry_date: '1798761600',
      category_array: [{ id: '158198' }, { id: '158199' }],
      secure_zone_array: [{ id: '42' }],
      'module_field_14/product_1': 'Soft linen',
      'module_field_14/product_2': '/images/throw.jpg',
      'module_field_14/product_3': 'SKU-1',
      'module_field_14/product/inventory/1': '5',
      'module_field_14/product/inventory/3': 'x',
      'module_field_14/product/price/usd/1': '1999',
      'module_field_14/product/price/usd/2': '2500',
      'module_field_14/product/price/eur/4': '0',
      attributes: [
        {
          name: 'Colour',
          enabled: 'true',
          items: [
            {
              name: 'Sand',
              enabled: 'true',
              'module_field_14/product_attribute_option_2': 'a',
              'module_field_14/product_attribute_option_6': 'd',
              'module_field_14/product_attribute_option/price/gbp/1': '150',
              'module_field_14/product_attribute_option/inventory/1': '3',
            },
            { name: 'Olive', enabled: 'false' },
          ],
        },
        { name: 'Size', enabled: 'false' },
      ],
    });
    expect(wireProductSchema.safeParse(body).success).toBe(true);
  });

  it('leaves blank and whitespace-only fields out, and empty lists', () => {
    const form: ProductForm = {
      ...emptyProduct(),
      name: '   ',
      slug: ' ',
      weighting: '\t',
      categories: ['', '  '],
      secureZones: [],
      fields: [' ', '', '\n', '', ''],
      prices: grid(4, { usd: ['  ', '', '', ''] }),
    };
    expect(encodeProduct(form, EN).body).toEqual({ name: '', enabled: 'true' });
  });

  it('leaves an unreadable price cell out and reports it at its form path', () => {
    const form: ProductForm = {
      ...emptyProduct(),
      name: 'Mug',
      prices: grid(4, { usd: ['abc', '12', '', ''], nzd: ['', '', '-5', ''] }),
      attributes: [
        { ...emptyAttribute(), name: 'A', options: [option({ name: 'x' })] },
        {
          ...emptyAttribute(),
          name: 'B',
          options: [option({ name: 'p' }), option({ name: 'q' }), option({ name: 'r', prices: grid(2, { eur: ['1', '12.345'] }) })],
        },
      ],
    };
    const { body, problems } = encodeProduct(form, EN);
    // In the order of the grid: currencies as CURRENCIES lists them, then attributes.
    expect(problems).toEqual([
      { path: 'prices.nzd.2', message: MONEY_REASONS.negative },
      { path: 'prices.usd.0', message: MONEY_REASONS.notANumber },
      { path: 'attributes.1.options.2.prices.eur.1', message: MONEY_REASONS.tooManyDecimals },
    ]);
    expect(body[productPriceKey('usd', 1)]).toBeUndefined();
    expect(body[productPriceKey('usd', 2)]).toBe('1200');
    expect(body[productPriceKey('nzd', 3)]).toBeUndefined();
    const item = body.attributes?.[1]?.items?.[2];
    expect(item?.[optionPriceKey('eur', 1)]).toBe('100');
    expect(item?.[optionPriceKey('eur', 2)]).toBeUndefined();
  });

  it('refuses an amount marked with another currency than its column', () => {
    const { problems } = encodeProduct({ ...emptyProduct(), prices: grid(4, { usd: ['€5', '$5', '', ''] }) }, EN);
    expect(problems).toEqual([{ path: 'prices.usd.0', message: 'This is a price in EUR, not USD' }]);
  });

  it('reads cells in the given locale', () => {
    const form = { ...emptyProduct(), prices: grid(4, { eur: ['1.299', '1,5', '', ''] }) };
    expect(encodeProduct(form, DE).body).toMatchObject({
      [productPriceKey('eur', 1)]: '129900',
      [productPriceKey('eur', 2)]: '150',
    });
    expect(encodeProduct(form, EN).problems).toEqual([{ path: 'prices.eur.0', message: MONEY_REASONS.tooManyDecimals }]);
  });

  it('leaves an unreadable date out and reports it', () => {
    const { body, problems } = encodeProduct({ ...emptyProduct(), releaseAt: '2026-02-30 10:00:00', expiryAt: 'soon' }, EN);
    expect(body.release_date).toBeUndefined();
    expect(body.expiry_date).toBeUndefined();
    expect(problems).toEqual([
      { path: 'releaseAt', message: DATE_REASONS.notReal },
      { path: 'expiryAt', message: DATE_REASONS.unreadable },
    ]);
  });
});

describe('encodeProduct: text as typed, identifiers trimmed', () => {
  it('trims the name, the slug, ids and whole numbers, and sends other text exactly as typed', () => {
    const form: ProductForm = {
      ...emptyProduct(),
      name: '  Linen throw ',
      slug: ' linen-throw ',
      weighting: ' 3 ',
      categories: [' 12 '],
      fields: ['  <p>Soft</p>\n\n', ' SKU 1 ', '', '', ''],
      inventory: [' per attribute ', '', ''],
      attributes: [
        { ...emptyAttribute(), name: ' Size ', options: [option({ name: ' L ', fields: [' L-01 ', '', '', ''], inventory: ' 4 ' })] },
      ],
    };
    const { body } = encodeProduct(form, EN);
    expect(body).toMatchObject({
      name: 'Linen throw',
      slug: 'linen-throw',
      weighting: '3',
      category_array: [{ id: '12' }],
      'module_field_14/product_1': '  <p>Soft</p>\n\n',
      'module_field_14/product_2': ' SKU 1 ',
      'module_field_14/product/inventory/1': ' per attribute ',
    });
    expect(body.attributes?.[0]).toEqual({
      name: 'Size',
      enabled: 'true',
      items: [
        {
          name: 'L',
          enabled: 'true',
          'module_field_14/product_attribute_option_2': ' L-01 ',
          'module_field_14/product_attribute_option/inventory/1': '4',
        },
      ],
    });
  });

  it('always sends enabled, on the product, each attribute and each option', () => {
    const form: ProductForm = {
      ...emptyProduct(),
      enabled: false,
      attributes: [{ ...emptyAttribute(), enabled: false, options: [option({ enabled: false })] }],
    };
    const { body } = encodeProduct(form, EN);
    expect(body.enabled).toBe('false');
    expect(body.attributes?.[0]?.enabled).toBe('false');
    expect(body.attributes?.[0]?.items?.[0]?.enabled).toBe('false');
  });

  it('reads a date alone as the start of that day, and a date it cannot read is a problem, never dropped silently', () => {
    const previous = process.env.TZ;
    process.env.TZ = 'UTC';
    try {
      expect(encodeProduct({ ...emptyProduct(), releaseAt: '2026-03-01' }, EN)).toMatchObject({
        body: { release_date: '1772323200' },
        problems: [],
      });
      expect(encodeProduct({ ...emptyProduct(), releaseAt: '01.03.2026' }, DE)).toMatchObject({
        body: { release_date: '1772323200' },
        problems: [],
      });
      const half = encodeProduct({ ...emptyProduct(), releaseAt: '2026-03' }, EN);
      expect(half.body.release_date).toBeUndefined();
      expect(half.problems).toEqual([{ path: 'releaseAt', message: DATE_REASONS.unreadable }]);
    } finally {
      process.env.TZ = previous;
    }
  });

  it('uses the site’s price precision: 4 decimals sends ten-thousandths', () => {
    const form = { ...emptyProduct(), prices: grid(4, { aud: ['19.99', '0,0005', '', ''] }) };
    const four = { ...DE, decimals: 4 } as const;
    expect(encodeProduct(form, four).body).toMatchObject({ [productPriceKey('aud', 1)]: '199900', [productPriceKey('aud', 2)]: '5' });
    expect(decodeProduct(encodeProduct(form, four).body, 4).prices.aud).toEqual(['19.9900', '0.0005', '', '']);
  });
});

describe('decodeProduct', () => {
  it('decodes an empty body to the empty form', () => {
    expect(withoutKeys(decodeProduct({}))).toEqual(withoutKeys(emptyProduct()));
  });

  it('reads minor units as major-unit text, epochs as local date-times, and absent enabled as true', () => {
    const form = decodeProduct({
      name: 'Mug',
      slug: 'mug',
      release_date: '1767225600',
      [productPriceKey('usd', 1)]: '1999',
      [productPriceKey('gbp', 4)]: '5',
      attributes: [{ name: 'Size', items: [{ name: 'L', enabled: 'false', [optionPriceKey('aud', 2)]: '0' }] }],
    });
    expect(form).toMatchObject({ name: 'Mug', slug: 'mug', slugEdited: true, enabled: true, releaseAt: '2026-01-01 13:00:00' });
    expect(form.prices.usd).toEqual(['19.99', '', '', '']);
    expect(form.prices.gbp).toEqual(['', '', '', '0.05']);
    expect(form.attributes[0]).toMatchObject({ name: 'Size', enabled: true });
    expect(form.attributes[0]?.options[0]).toMatchObject({ name: 'L', enabled: false });
    expect(form.attributes[0]?.options[0]?.prices.aud).toEqual(['', '0.00']);
  });

  it('keeps values that are not valid on the wire as typed, so the validator can mark them', () => {
    const form = decodeProduct({
      [productPriceKey('usd', 1)]: 'abc',
      [productPriceKey('usd', 2)]: '0012',
      [productPriceKey('usd', 3)]: '-5',
      [productPriceKey('usd', 4)]: String(MAX_MINOR_UNITS + 1),
      release_date: 'tomorrow',
      expiry_date: String(MAX_EPOCH_SECONDS + 1),
      weighting: 'ten',
    });
    expect(form.prices.usd).toEqual(['abc', '0012', '-5', '1000000000000']);
    expect(form.releaseAt).toBe('tomorrow');
    expect(form.expiryAt).toBe(String(MAX_EPOCH_SECONDS + 1));
    expect(form.weighting).toBe('ten');
    expect(encodeProduct(form, EN).problems.map((p) => p.path)).toEqual([
      'releaseAt',
      'expiryAt',
      'prices.usd.0',
      'prices.usd.2',
      'prices.usd.3',
    ]);
  });

  it('gives every attribute and option a fresh key', () => {
    const body: WireProduct = { attributes: [{ items: [{}, {}] }, { items: [{}] }] };
    const first = decodeProduct(body);
    const second = decodeProduct(body);
    const keys = [first, second].flatMap((f) => f.attributes.flatMap((a) => [a.key, ...a.options.map((o) => o.key)]));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('slugEdited is false without a slug, so the editor keeps suggesting one', () => {
    expect(decodeProduct({ name: 'Mug' }).slugEdited).toBe(false);
  });
});

// ---- Round trips ----

const trimmed = fc.string({ maxLength: 20 }).map((s) => s.trim());
const nonBlank = trimmed.filter((s) => s !== '');
const cell = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 0, max: MAX_MINOR_UNITS }).map((n) => formatMinor(n)),
);
// Whole-second local date-times in the test's time zone, from 1970 to 9999.
const localDateTime = fc.integer({ min: 0, max: MAX_EPOCH_SECONDS - 2 * 86400 }).map(epochToLocalDateTime);
const dateCell = fc.oneof(fc.constant(''), localDateTime);

function gridOf(tiers: number): fc.Arbitrary<PriceGrid> {
  const row = fc.array(cell, { minLength: tiers, maxLength: tiers });
  return fc.record(Object.fromEntries(CURRENCIES.map((c) => [c, row])) as Record<(typeof CURRENCIES)[number], fc.Arbitrary<string[]>>);
}

// A new item ('') or one the platform has (its id), both kept by a round trip.
const formId = fc.oneof(fc.constant(''), fc.integer({ min: 1, max: 2 ** 40 }).map(String));

const optionForm = fc.record({
  key: fc.string(),
  id: formId,
  name: trimmed,
  enabled: fc.boolean(),
  fields: fc.array(trimmed, { minLength: 4, maxLength: 4 }),
  prices: gridOf(OPTION_PRICE_TIERS.length),
  inventory: trimmed,
});

const productForm: fc.Arbitrary<ProductForm> = fc
  .record({
    name: trimmed,
    slug: trimmed,
    enabled: fc.boolean(),
    weighting: trimmed,
    releaseAt: dateCell,
    expiryAt: dateCell,
    categories: fc.array(nonBlank, { maxLength: 3 }),
    secureZones: fc.array(nonBlank, { maxLength: 3 }),
    fields: fc.array(trimmed, { minLength: 5, maxLength: 5 }),
    inventory: fc.array(trimmed, { minLength: 3, maxLength: 3 }),
    prices: gridOf(PRODUCT_PRICE_TIERS.length),
    attributes: fc.array(
      fc.record({ key: fc.string(), id: formId, name: trimmed, enabled: fc.boolean(), options: fc.array(optionForm, { maxLength: 3 }) }),
      { maxLength: 3 },
    ),
  })
  .map((form) => ({ ...form, slugEdited: form.slug !== '' }));

/** An optional property per key, each a value of `value`. */
function optionalKeys(keys: readonly string[], value: fc.Arbitrary<string>) {
  return fc.record(Object.fromEntries(keys.map((k) => [k, value])), { requiredKeys: [] });
}

const minorUnits = fc.integer({ min: 0, max: MAX_MINOR_UNITS }).map(String);
// An epoch that a local date-time names (in the repeated autumn hour, the earlier instant).
const canonicalEpoch = (epoch: number) => {
  const parsed = parseDateText(epochToLocalDateTime(epoch));
  return parsed.ok && parsed.epoch !== null ? parsed.epoch : epoch;
};
const ids = fc
  .uniqueArray(fc.integer({ min: 1, max: 2 ** 31 }).map(String), { minLength: 1, maxLength: 3 })
  .map((list) => list.map((id) => ({ id })));

const wireOption = fc
  .tuple(
    fc.record({ name: nonBlank, enabled: fc.constantFrom('true', 'false') }),
    optionalKeys(OPTION_FIELD_KEYS, nonBlank),
    optionalKeys(OPTION_PRICE_KEYS, minorUnits),
    optionalKeys([OPTION_INVENTORY_KEY], fc.integer({ min: 0, max: 999999999 }).map(String)),
  )
  .map((parts) => Object.assign({}, ...parts) as Record<string, string>);

const wireAttribute = fc.record(
  {
    name: nonBlank,
    enabled: fc.constantFrom('true', 'false'),
    // Option names are unique within an attribute (a contract rule), compared trimmed and case-blind.
    items: fc.uniqueArray(wireOption, { minLength: 1, maxLength: 3, selector: (o) => (o.name ?? '').toLowerCase() }),
  },
  { requiredKeys: ['name', 'enabled'] },
);

const wireProduct: fc.Arbitrary<WireProduct> = fc
  .tuple(
    fc.record(
      {
        name: nonBlank,
        slug: fc.stringMatching(/^[a-z0-9]{1,10}(?:-[a-z0-9]{1,10}){0,3}$/),
        enabled: fc.constantFrom('true', 'false'),
        weighting: fc.integer({ min: -999999999, max: 999999999 }).map(String),
        category_array: ids,
        secure_zone_array: ids,
        attributes: fc.array(wireAttribute, { minLength: 1, maxLength: 3 }),
      },
      { requiredKeys: ['name', 'enabled'] },
    ),
    fc.option(fc.record({ release: fc.integer({ min: 0, max: 2e11 }), gap: fc.integer({ min: 7200, max: 1e9 }) }), { nil: undefined }),
    optionalKeys(PRODUCT_FIELD_KEYS, nonBlank),
    optionalKeys(PRODUCT_INVENTORY_KEYS, nonBlank),
    optionalKeys(PRODUCT_PRICE_KEYS, minorUnits),
  )
  .map(([base, window, ...numbered]) => {
    const dates = window
      ? { release_date: String(canonicalEpoch(window.release)), expiry_date: String(canonicalEpoch(window.release + window.gap)) }
      : {};
    // The schema both checks the generated shape and gives it the WireProduct type.
    return wireProductSchema.parse(Object.assign({}, base, dates, ...numbered));
  });

describe('ids of attributes and options', () => {
  it('are sent where an item has one, and never for a new item', () => {
    const form: ProductForm = {
      ...emptyProduct(),
      name: 'Mug',
      attributes: [
        { ...emptyAttribute(), id: '31', name: 'Size', options: [option({ id: '77', name: 'S' }), option({ name: 'M' })] },
        { ...emptyAttribute(), name: 'Colour', options: [option({ name: 'Red' })] },
      ],
    };
    expect(encodeProduct(form, EN).body.attributes).toEqual([
      {
        id: '31',
        name: 'Size',
        enabled: 'true',
        items: [
          { id: '77', name: 'S', enabled: 'true' },
          { name: 'M', enabled: 'true' },
        ],
      },
      { name: 'Colour', enabled: 'true', items: [{ name: 'Red', enabled: 'true' }] },
    ]);
  });

  it('a create from a new form has no id anywhere', () => {
    const form: ProductForm = { ...emptyProduct(), name: 'Mug', attributes: [emptyAttribute(), emptyAttribute()] };
    expect(JSON.stringify(encodeProduct(form, EN).body)).not.toContain('"id"');
  });

  it('are read from a record, and are "" for an item without one', () => {
    const form = decodeProduct({ name: 'Mug', attributes: [{ id: '5', name: 'Size', items: [{ id: '6', name: 'S' }, { name: 'M' }] }] });
    expect(form.attributes.map((a) => [a.id, a.options.map((o) => o.id)])).toEqual([['5', ['6', '']]]);
  });

  it('a draft stored before ids existed still loads, its items new', () => {
    const { id: _a, ...attribute } = { ...emptyAttribute(), name: 'Size' };
    const { id: _o, ...stored } = attribute.options[0] ?? emptyOption();
    const parsed = productFormSchema.safeParse({ ...emptyProduct(), attributes: [{ ...attribute, options: [stored] }] });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.attributes[0]?.id).toBe('');
    expect(parsed.data?.attributes[0]?.options[0]?.id).toBe('');
  });
});

describe('round trips', () => {
  it('form → wire → form is the identity for canonical forms (keys aside)', () => {
    fc.assert(
      fc.property(productForm, (form) => {
        const { body, problems } = encodeProduct(form, EN);
        expect(problems).toEqual([]);
        expect(withoutKeys(decodeProduct(body))).toEqual(withoutKeys(form));
      }),
      { numRuns: 200 },
    );
  });

  it('wire → form → wire is the identity for valid wire bodies', () => {
    fc.assert(
      fc.property(wireProduct, (body) => {
        expect(validateProduct(body)).toMatchObject({ ok: true });
        expect(encodeProduct(decodeProduct(body), EN)).toEqual({ body, problems: [] });
      }),
      { numRuns: 200 },
    );
  });
});
