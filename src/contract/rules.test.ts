import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fullOption, fullProduct } from './fixtures';
import { MAX_EPOCH_SECONDS } from './identifiers';
import {
  MAX_ATTRIBUTES,
  MAX_ERROR_DETAILS,
  MAX_NAME_LENGTH,
  MAX_OPTIONS,
  MAX_REFERENCES,
  capDetails,
  checkProductShape,
  cutNote,
  formatFieldPath,
  productRuleViolations,
  validateProduct,
} from './rules';
import {
  OPTION_FIELD_KEYS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_KEYS,
  PRODUCT_FIELD_KEYS,
  PRODUCT_INVENTORY_KEYS,
  PRODUCT_PRICE_KEYS,
  errorBody,
  errorBodySchema,
  formCasePath,
  optionPriceKey,
  productPriceKey,
  type ErrorDetail,
} from './site-api';

type Json = Record<string, unknown>;

/** fullProduct() with one change made by `edit`. */
function productWith(edit: (p: Json & { attributes: Json[] }) => void): Json {
  const p = fullProduct() as Json & { attributes: Json[] };
  edit(p);
  return p;
}

const items = (p: { attributes: Json[] }, attribute: number) => p.attributes[attribute]?.items as Json[];

function rejected(body: unknown, status: 400 | 422): ErrorDetail[] {
  const result = validateProduct(body);
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  expect(result.status).toBe(status);
  return result.details;
}

const fields = (details: ErrorDetail[]) => details.map((d) => d.field);

describe('the contract key lists', () => {
  it('has the 24 product prices, 3 inventory keys, 5 product fields, 12 option prices and 4 option fields of the spec', () => {
    expect(PRODUCT_PRICE_KEYS).toHaveLength(24);
    expect(new Set(PRODUCT_PRICE_KEYS).size).toBe(24);
    expect(PRODUCT_PRICE_KEYS).toContain('module_field_14/product/price/aud/1');
    expect(PRODUCT_PRICE_KEYS).toContain('module_field_14/product/price/usd/4');
    expect(PRODUCT_INVENTORY_KEYS).toEqual([
      'module_field_14/product/inventory/1',
      'module_field_14/product/inventory/2',
      'module_field_14/product/inventory/3',
    ]);
    expect(PRODUCT_FIELD_KEYS).toEqual([1, 2, 3, 4, 5].map((n) => `module_field_14/product_${n}`));
    expect(OPTION_PRICE_KEYS).toHaveLength(12);
    expect(OPTION_PRICE_KEYS).toContain('module_field_14/product_attribute_option/price/nzd/2');
    expect(OPTION_FIELD_KEYS).toEqual([2, 3, 4, 6].map((n) => `module_field_14/product_attribute_option_${n}`));
    expect(OPTION_INVENTORY_KEY).toBe('module_field_14/product_attribute_option/inventory/1');
  });

  it('encodes path parameters of the case lookup as single segments', () => {
    expect(formCasePath('3', '48211')).toBe('/forms/3/cases/48211');
    expect(formCasePath('a/b', 'x y')).toBe('/forms/a%2Fb/cases/x%20y');
  });

  it('builds the error body with the status phrase and code', () => {
    expect(errorBody(422, 'bad', [{ field: 'name', message: 'x' }])).toEqual({
      error: 'Unprocessable Entity',
      message: 'bad',
      code: 422,
      details: [{ field: 'name', message: 'x' }],
    });
    expect(errorBody(401, 'who')).toEqual({ error: 'Unauthorized', message: 'who', code: 401 });
    expect(errorBodySchema.safeParse(errorBody(404, 'none')).success).toBe(true);
  });
});

describe('validateProduct: a valid product', () => {
  it('accepts a product with every field of the spec and returns it unchanged', () => {
    const body = fullProduct();
    const result = validateProduct(body);
    expect(result).toEqual({ ok: true, product: body });
    expect(Object.keys(body)).toHaveLength(9 + 5 + 3 + 24);
  });

  it('accepts the smallest product: only a name', () => {
    expect(validateProduct({ name: 'Mug' })).toEqual({ ok: true, product: { name: 'Mug' } });
  });

  it('accepts boundary values: zero prices and stock, epoch 0, negative weighting, the last representable date', () => {
    const body = productWith((p) => {
      p[productPriceKey('usd', 1)] = '0';
      p.weighting = '-5';
      p.release_date = '0';
      p.expiry_date = String(MAX_EPOCH_SECONDS);
      const option = items(p, 0)[0] as Json;
      option[optionPriceKey('eur', 2)] = '0';
      option[OPTION_INVENTORY_KEY] = '0';
      p.name = 'x'.repeat(MAX_NAME_LENGTH);
    });
    expect(validateProduct(body).ok).toBe(true);
  });

  it('accepts empty arrays and attributes without items', () => {
    expect(validateProduct({ name: 'Mug', attributes: [{ name: 'Colour' }], category_array: [], secure_zone_array: [] }).ok).toBe(true);
  });
});

describe('validateProduct: 400, not well formed', () => {
  it.each([
    ['an array', [], 'must be an object, not an array'],
    ['null', null, 'must be an object, not null'],
    ['a number', 42, 'must be an object, not a number'],
    ['a string', '{"name":"Mug"}', 'must be an object, not a string'],
    ['a boolean', true, 'must be an object, not a boolean'],
  ])('rejects a body that is %s, naming the body', (_what, body, message) => {
    expect(rejected(body, 400)).toEqual([{ field: 'body', message }]);
  });

  it('names the exact path of a number sent where a nested option price string belongs', () => {
    const body = productWith((p) => {
      (items(p, 0)[2] as Json)[optionPriceKey('usd', 1)] = 1999;
    });
    expect(rejected(body, 400)).toEqual([
      {
        field: 'attributes[0].items[2].module_field_14/product_attribute_option/price/usd/1',
        message: 'must be a JSON string (every value is sent as a string), not a number',
      },
    ]);
  });

  it('rejects numbers and booleans in place of the string scalars of the product', () => {
    const body = productWith((p) => {
      p.enabled = true;
      p.weighting = 10;
      p[productPriceKey('gbp', 3)] = 12.5;
    });
    expect(fields(rejected(body, 400)).sort()).toEqual(['enabled', 'module_field_14/product/price/gbp/3', 'weighting']);
  });

  it('rejects an object where an array belongs', () => {
    const body = productWith((p) => {
      p.attributes[1]!.items = { name: 'Single' };
      p.category_array = { id: '1' };
    });
    const details = rejected(body, 400);
    expect(details).toContainEqual({ field: 'attributes[1].items', message: 'must be an array, not an object' });
    expect(details).toContainEqual({ field: 'category_array', message: 'must be an array, not an object' });
    expect(details).toHaveLength(2);
  });

  it('rejects a non-object element of an array and a non-string reference id', () => {
    const body = productWith((p) => {
      p.attributes.push(null as unknown as Json);
      p.secure_zone_array = [{ id: 42 }];
    });
    expect(rejected(body, 400)).toEqual(
      expect.arrayContaining([
        { field: 'attributes[2]', message: 'must be an object, not null' },
        { field: 'secure_zone_array[0].id', message: 'must be a JSON string (every value is sent as a string), not a number' },
      ]),
    );
  });

  it('rejects an unknown field at the root', () => {
    const body = productWith((p) => {
      p.price = '1999';
    });
    expect(rejected(body, 400)).toEqual([{ field: 'price', message: 'is not a field of this object in Site API v2' }]);
  });

  it('rejects unknown fields in attributes, options and references with their paths', () => {
    const body = productWith((p) => {
      p.attributes[0]!.colour = 'red';
      (items(p, 1)[1] as Json)['module_field_14/product_attribute_option_5'] = 'x';
      (items(p, 1)[1] as Json)['module_field_14/product_attribute_option/price/usd/3'] = '1';
      p.category_array = [{ id: '1', name: 'Homewares' }];
    });
    expect(fields(rejected(body, 400)).sort()).toEqual(
      [
        'attributes[0].colour',
        'attributes[1].items[1].module_field_14/product_attribute_option_5',
        'attributes[1].items[1].module_field_14/product_attribute_option/price/usd/3',
        'category_array[0].name',
      ].sort(),
    );
  });

  it('rejects a price key outside the spec (a fifth tier, an unknown currency) as unknown fields', () => {
    const body = { name: 'Mug', 'module_field_14/product/price/usd/5': '1', 'module_field_14/product/price/jpy/1': '1' };
    expect(fields(rejected(body, 400)).sort()).toEqual(['module_field_14/product/price/jpy/1', 'module_field_14/product/price/usd/5']);
  });

  it('reports every offending field at once, and shape errors before rule errors', () => {
    // name is empty (a 422 rule) but the body is also malformed: the answer is 400 and names only the shape errors.
    const body = { name: '', slug: 7, bogus: 'x', attributes: [{ items: [{ name: 1 }] }] };
    expect(fields(rejected(body, 400)).sort()).toEqual(['attributes[0].items[0].name', 'bogus', 'slug']);
  });

  it('checkProductShape alone accepts a well-formed product that breaks the rules', () => {
    expect(checkProductShape({ name: '', slug: 'Not A Slug' }).ok).toBe(true);
  });
});

describe('validateProduct: 422, well formed but not allowed', () => {
  const cases: [string, (p: Json & { attributes: Json[] }) => void, string][] = [
    ['an empty name', (p) => (p.name = ''), 'name'],
    ['a name of spaces', (p) => (p.name = '   '), 'name'],
    ['a missing name', (p) => delete p.name, 'name'],
    ['a name that is too long', (p) => (p.name = 'x'.repeat(MAX_NAME_LENGTH + 1)), 'name'],
    ['a slug with capitals and spaces', (p) => (p.slug = 'Linen Throw'), 'slug'],
    ['a slug with a double hyphen', (p) => (p.slug = 'linen--throw'), 'slug'],
    ['a slug with a trailing hyphen', (p) => (p.slug = 'linen-'), 'slug'],
    ['an empty slug', (p) => (p.slug = ''), 'slug'],
    ['enabled "yes"', (p) => (p.enabled = 'yes'), 'enabled'],
    ['enabled "True"', (p) => (p.enabled = 'True'), 'enabled'],
    ['a decimal weighting', (p) => (p.weighting = '1.5'), 'weighting'],
    ['a weighting word', (p) => (p.weighting = 'ten'), 'weighting'],
    ['an empty weighting', (p) => (p.weighting = ''), 'weighting'],
    ['an ISO release date', (p) => (p.release_date = '2026-01-01'), 'release_date'],
    ['a millisecond-looking expiry beyond year 9999', (p) => (p.expiry_date = '1798761600000'), 'expiry_date'],
    ['a negative release date', (p) => (p.release_date = '-1'), 'release_date'],
    ['expiry equal to release', (p) => (p.expiry_date = p.release_date as string), 'expiry_date'],
    ['expiry before release', (p) => (p.expiry_date = '1767225599'), 'expiry_date'],
    ['a negative price', (p) => (p[productPriceKey('aud', 2)] = '-100'), 'module_field_14/product/price/aud/2'],
    ['a decimal price', (p) => (p[productPriceKey('cad', 4)] = '19.99'), 'module_field_14/product/price/cad/4'],
    ['a price with a leading zero', (p) => (p[productPriceKey('nzd', 1)] = '0199'), 'module_field_14/product/price/nzd/1'],
    ['an empty price', (p) => (p[productPriceKey('eur', 1)] = ''), 'module_field_14/product/price/eur/1'],
    [
      'a negative option price',
      (p) => ((items(p, 0)[1] as Json)[optionPriceKey('usd', 2)] = '-1'),
      'attributes[0].items[1].module_field_14/product_attribute_option/price/usd/2',
    ],
    [
      'a decimal option price',
      (p) => ((items(p, 1)[0] as Json)[optionPriceKey('gbp', 1)] = '2.50'),
      'attributes[1].items[0].module_field_14/product_attribute_option/price/gbp/1',
    ],
    [
      'a negative option inventory',
      (p) => ((items(p, 0)[2] as Json)[OPTION_INVENTORY_KEY] = '-3'),
      'attributes[0].items[2].module_field_14/product_attribute_option/inventory/1',
    ],
    [
      'a decimal option inventory',
      (p) => ((items(p, 0)[0] as Json)[OPTION_INVENTORY_KEY] = '1.5'),
      'attributes[0].items[0].module_field_14/product_attribute_option/inventory/1',
    ],
    [
      'a word as option inventory',
      (p) => ((items(p, 0)[0] as Json)[OPTION_INVENTORY_KEY] = 'lots'),
      'attributes[0].items[0].module_field_14/product_attribute_option/inventory/1',
    ],
    ['an attribute without a name', (p) => delete p.attributes[1]!.name, 'attributes[1].name'],
    ['an attribute with an empty name', (p) => (p.attributes[0]!.name = ' '), 'attributes[0].name'],
    ['an attribute enabled "1"', (p) => (p.attributes[0]!.enabled = '1'), 'attributes[0].enabled'],
    ['an option without a name', (p) => delete (items(p, 0)[1] as Json).name, 'attributes[0].items[1].name'],
    ['an option with an empty name', (p) => ((items(p, 1)[1] as Json).name = ''), 'attributes[1].items[1].name'],
    ['an option enabled "no"', (p) => ((items(p, 1)[0] as Json).enabled = 'no'), 'attributes[1].items[0].enabled'],
    ['a category id that is a word', (p) => (p.category_array = [{ id: 'homewares' }]), 'category_array[0].id'],
    ['a category id of zero', (p) => (p.category_array = [{ id: '158198' }, { id: '0' }]), 'category_array[1].id'],
    ['an empty secure zone id', (p) => (p.secure_zone_array = [{ id: '' }]), 'secure_zone_array[0].id'],
    ['a category listed twice', (p) => (p.category_array = [{ id: '7' }, { id: '7' }]), 'category_array[1].id'],
  ];

  it.each(cases)('rejects %s, naming the field', (_what, edit, field) => {
    const details = rejected(productWith(edit), 422);
    expect(details).toHaveLength(1);
    expect(details[0]?.field).toBe(field);
    expect(details[0]?.message).toEqual(expect.any(String));
    expect(details[0]?.message.length).toBeGreaterThan(0);
  });

  it('rejects two options with the same name in one attribute, ignoring case and spaces, at the second one', () => {
    const body = productWith((p) => {
      (items(p, 0)[2] as Json).name = '  SAND ';
    });
    const details = rejected(body, 422);
    expect(details).toEqual([{ field: 'attributes[0].items[2].name', message: expect.stringContaining('option 1') }]);
  });

  it('allows the same option name in two different attributes', () => {
    const body = productWith((p) => {
      (items(p, 1)[0] as Json).name = 'Sand';
    });
    expect(validateProduct(body).ok).toBe(true);
  });

  it('names every violation at once', () => {
    const body = {
      name: '',
      slug: 'Bad Slug',
      enabled: 'yes',
      weighting: '1.5',
      release_date: 'tomorrow',
      attributes: [{ items: [{ name: 'Red' }, { name: 'red' }, { name: 'Blue', [OPTION_INVENTORY_KEY]: '-1' }] }],
    };
    expect(fields(rejected(body, 422))).toEqual([
      'name',
      'slug',
      'enabled',
      'weighting',
      'release_date',
      'attributes[0].name',
      'attributes[0].items[1].name',
      'attributes[0].items[2].module_field_14/product_attribute_option/inventory/1',
    ]);
  });

  it('does not compare dates when one of them is already wrong', () => {
    expect(fields(productRuleViolations({ name: 'a', release_date: 'x', expiry_date: '1' }))).toEqual(['release_date']);
  });
});

describe('validateProduct: limits that keep one request’s work small', () => {
  const options = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `O${i}` }));

  it('accepts 100 attributes and 2,048 options in all, and refuses one more of either (422, one detail)', () => {
    const attributes = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `A${i}` }));
    expect(validateProduct({ name: 'x', attributes: attributes(MAX_ATTRIBUTES) }).ok).toBe(true);
    expect(validateProduct({ name: 'x', attributes: attributes(MAX_ATTRIBUTES + 1) })).toEqual({
      ok: false,
      status: 422,
      total: 1,
      details: [{ field: 'attributes', message: 'must list at most 100 attributes, not 101' }],
    });
    const half = MAX_OPTIONS / 2;
    expect(
      validateProduct({
        name: 'x',
        attributes: [
          { name: 'a', items: options(half) },
          { name: 'b', items: options(half) },
        ],
      }).ok,
    ).toBe(true);
    const over = validateProduct({
      name: 'x',
      attributes: [
        { name: 'a', items: options(half) },
        { name: 'b', items: options(half + 1) },
      ],
    });
    expect(over).toMatchObject({
      ok: false,
      status: 422,
      details: [{ field: 'attributes', message: 'must hold at most 2,048 options in all, not 2,049' }],
    });
  });

  it('refuses more than 250 categories or secure zones', () => {
    const refs = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }));
    expect(validateProduct({ name: 'x', category_array: refs(MAX_REFERENCES) }).ok).toBe(true);
    expect(
      validateProduct({ name: 'x', category_array: refs(MAX_REFERENCES + 1), secure_zone_array: refs(MAX_REFERENCES + 1) }),
    ).toMatchObject({
      status: 422,
      details: [{ field: 'category_array' }, { field: 'secure_zone_array' }],
    });
  });

  it('checks the limits before anything else, even on a body that is otherwise malformed', () => {
    const check = validateProduct({ name: 7, attributes: Array.from({ length: 5000 }, () => 'not an attribute') });
    expect(check).toMatchObject({ ok: false, status: 422, total: 1 });
  });

  it('keeps at most 100 details and counts the rest', () => {
    const check = validateProduct({ name: 'x', attributes: [{ name: 'a', items: options(300).map((o) => ({ ...o, enabled: 'yes' })) }] });
    expect(check).toMatchObject({ ok: false, status: 422, total: 300 });
    expect(check.ok ? [] : check.details).toHaveLength(MAX_ERROR_DETAILS);
    const shape = validateProduct(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`x${i}`, 1])));
    expect(shape).toMatchObject({ ok: false, status: 400, total: 250 });
    expect(shape.ok ? [] : shape.details).toHaveLength(MAX_ERROR_DETAILS);
  });

  it('says how many problems a cut list had', () => {
    expect(cutNote(349_000, 100)).toBe('Showing the first 100 of 349,000 problems.');
    expect(capDetails(Array.from({ length: 120 }, (_, i) => ({ field: `f${i}`, message: 'm' })))).toMatchObject({
      total: 120,
      note: cutNote(120, 100),
    });
  });
});
describe('formatFieldPath', () => {
  it('joins keys with dots and indexes with brackets', () => {
    expect(formatFieldPath(['attributes', 0, 'items', 2, 'module_field_14/product_attribute_option/price/usd/1'])).toBe(
      'attributes[0].items[2].module_field_14/product_attribute_option/price/usd/1',
    );
    expect(formatFieldPath(['name'])).toBe('name');
    expect(formatFieldPath(['category_array', 3, 'id'])).toBe('category_array[3].id');
  });

  it('handles the empty path and a path that starts with an index', () => {
    expect(formatFieldPath([])).toBe('');
    expect(formatFieldPath([0, 'name'])).toBe('[0].name');
  });
});

describe('validateProduct over arbitrary input (property)', () => {
  const knownProductKeys = Object.keys(fullProduct());
  const knownOptionKeys = Object.keys(fullOption('x', 1));
  const looseString = fc.oneof(
    fc.string(),
    fc.constantFrom('', ' ', 'true', 'false', '0', '-1', '1.5', '1999', '0199', '1767225600', '99999999999999', 'a-b'),
  );
  const looseScalar = fc.oneof(looseString, fc.jsonValue({ maxDepth: 2 }));
  const option = fc.dictionary(fc.oneof(fc.constantFrom(...knownOptionKeys), fc.string()), looseScalar, { maxKeys: 6 });
  const attribute = fc.record(
    { name: looseScalar, enabled: looseScalar, items: fc.oneof(fc.array(option, { maxLength: 4 }), looseScalar) },
    { requiredKeys: [] },
  );
  const reference = fc.oneof(fc.record({ id: looseScalar }), fc.jsonValue({ maxDepth: 1 }));
  const productLike = fc.dictionary(
    fc.oneof(fc.constantFrom(...knownProductKeys), fc.string()),
    fc.oneof(looseScalar, fc.array(attribute, { maxLength: 3 }), fc.array(reference, { maxLength: 3 })),
    { maxKeys: 12 },
  );
  // Right JSON types everywhere, arbitrary strings: reaches the 422 layer and sometimes passes it.
  const stringsFor = (keys: readonly string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, looseString])), { requiredKeys: [] });
  const wellShaped = fc
    .tuple(
      stringsFor(knownProductKeys.filter((k) => !k.endsWith('_array') && k !== 'attributes')),
      fc.array(
        fc.record(
          { name: looseString, enabled: looseString, items: fc.array(stringsFor(knownOptionKeys), { maxLength: 4 }) },
          { requiredKeys: [] },
        ),
        { maxLength: 3 },
      ),
      fc.array(fc.record({ id: looseString }), { maxLength: 3 }),
    )
    .map(([scalars, attributes, categories]) => ({ ...scalars, attributes, category_array: categories }));
  const arbitraryBody = fc.oneof(
    fc.jsonValue(),
    fc.object(),
    productLike,
    productLike.map((p) => JSON.parse(JSON.stringify(p)) as unknown),
    wellShaped,
  );

  it('never throws, and answers ok or 400/422 with non-empty details of strings', () => {
    fc.assert(
      fc.property(arbitraryBody, (body) => {
        const result = validateProduct(body);
        if (result.ok) {
          expect(result.product).toBeTypeOf('object');
          return;
        }
        expect([400, 422]).toContain(result.status);
        expect(result.details.length).toBeGreaterThan(0);
        for (const detail of result.details) {
          expect(detail.field).toBeTypeOf('string');
          expect(detail.message).toBeTypeOf('string');
          expect(detail.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
    // A generous limit: the runs are a fixed number, and a shared machine may be slow.
  }, 60_000);

  it('accepts every product built only from valid values', () => {
    const price = fc.integer({ min: 0, max: 10_000_000 }).map(String);
    const validOption = fc.record(
      {
        name: fc.uuid(),
        enabled: fc.constantFrom('true', 'false'),
        [optionPriceKey('usd', 1)]: price,
        [OPTION_INVENTORY_KEY]: fc.nat({ max: 100000 }).map(String),
      },
      { requiredKeys: ['name'] },
    );
    const validProduct = fc.record(
      {
        name: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
        slug: fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 }).map((w) => w.join('-')),
        weighting: fc.integer({ min: -1000, max: 1000 }).map(String),
        [productPriceKey('aud', 1)]: price,
        attributes: fc.array(fc.record({ name: fc.constantFrom('Colour', 'Size'), items: fc.array(validOption, { maxLength: 4 }) }), {
          maxLength: 3,
        }),
      },
      { requiredKeys: ['name'] },
    );
    fc.assert(
      fc.property(validProduct, (body) => {
        expect(validateProduct(body)).toEqual({ ok: true, product: body });
      }),
    );
  });
});
