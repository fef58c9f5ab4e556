import { describe, expect, it } from 'vitest';
import { formatFieldPath, validateProduct } from '@/contract/rules';
import {
  CURRENCIES,
  OPTION_FIELD_KEYS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_KEYS,
  PRODUCT_FIELD_KEYS,
  PRODUCT_INVENTORY_KEYS,
  PRODUCT_PRICE_KEYS,
} from '@/contract/site-api';
import { mapServerDetails, wireFieldToFormPath } from './error-paths';
import { BASE_FIELDS } from './registry';

describe('wireFieldToFormPath', () => {
  it.each([
    ['name', 'name'],
    ['slug', 'slug'],
    ['enabled', 'enabled'],
    ['weighting', 'weighting'],
    ['release_date', 'releaseAt'],
    ['expiry_date', 'expiryAt'],
    ['category_array', 'categories'],
    ['category_array[2]', 'categories'],
    ['category_array[2].id', 'categories'],
    ['secure_zone_array', 'secureZones'],
    ['secure_zone_array[0].id', 'secureZones'],
    ['module_field_14/product_1', 'fields.0'],
    ['module_field_14/product_3', 'fields.2'],
    ['module_field_14/product_5', 'fields.4'],
    ['module_field_14/product/inventory/1', 'inventory.0'],
    ['module_field_14/product/inventory/2', 'inventory.1'],
    ['module_field_14/product/inventory/3', 'inventory.2'],
    ['module_field_14/product/price/usd/4', 'prices.usd.3'],
    ['module_field_14/product/price/aud/1', 'prices.aud.0'],
    ['attributes[1].name', 'attributes.1.name'],
    ['attributes[1].enabled', 'attributes.1.enabled'],
    ['attributes[10].name', 'attributes.10.name'],
    ['attributes[1].items[2].name', 'attributes.1.options.2.name'],
    ['attributes[1].items[2].enabled', 'attributes.1.options.2.enabled'],
    ['attributes[1].items[2].module_field_14/product_attribute_option_2', 'attributes.1.options.2.fields.0'],
    ['attributes[1].items[2].module_field_14/product_attribute_option_6', 'attributes.1.options.2.fields.3'],
    ['attributes[1].items[2].module_field_14/product_attribute_option/price/gbp/2', 'attributes.1.options.2.prices.gbp.1'],
    ['attributes[0].items[0].module_field_14/product_attribute_option/price/nzd/1', 'attributes.0.options.0.prices.nzd.0'],
    ['attributes[1].items[2].module_field_14/product_attribute_option/inventory/1', 'attributes.1.options.2.inventory'],
  ])('%s → %s', (field, path) => expect(wireFieldToFormPath(BASE_FIELDS, field)).toBe(path));

  it.each([
    'body',
    'Content-Type',
    '',
    'attributes',
    'attributes[1]',
    'attributes[1].items',
    'attributes[1].items[2]',
    'attributes[1].colour',
    'attributes[1].items[2].colour',
    'attributes[1].items[2].module_field_14/product_1',
    'attributes[01].name',
    'attributes[-1].name',
    'attributes.1.name',
    'category_array[x].id',
    'category_array[0].name',
    'module_field_14/product_6',
    'module_field_14/product_attribute_option_2',
    'module_field_14/product/price/jpy/1',
    'module_field_14/product/price/usd/5',
    'module_field_14/product/inventory/4',
    'form',
    'id',
    'name.first',
    'constructor',
  ])('%j names no editable field → null', (field) => expect(wireFieldToFormPath(BASE_FIELDS, field)).toBeNull());

  it('maps every numbered key of the contract, at product and option level', () => {
    const product = [...PRODUCT_FIELD_KEYS, ...PRODUCT_INVENTORY_KEYS, ...PRODUCT_PRICE_KEYS].map((key) =>
      wireFieldToFormPath(BASE_FIELDS, key),
    );
    const option = [...OPTION_FIELD_KEYS, ...OPTION_PRICE_KEYS, OPTION_INVENTORY_KEY].map((key) =>
      wireFieldToFormPath(BASE_FIELDS, formatFieldPath(['attributes', 0, 'items', 0, key])),
    );
    expect(product).not.toContain(null);
    expect(option).not.toContain(null);
    expect(new Set(product).size).toBe(5 + 3 + CURRENCIES.length * 4);
    expect(new Set(option).size).toBe(4 + CURRENCIES.length * 2 + 1);
  });

  it('maps the contract’s own details', () => {
    const check = validateProduct({
      name: '',
      weighting: 'ten',
      'module_field_14/product/price/eur/2': '1.5',
      attributes: [{ name: 'Size', items: [{ name: 'S' }, { name: 's', 'module_field_14/product_attribute_option/inventory/1': '-1' }] }],
    });
    expect(check.ok).toBe(false);
    const paths = check.ok ? [] : check.details.map((d) => wireFieldToFormPath(BASE_FIELDS, d.field));
    expect(paths).toEqual(['name', 'weighting', 'prices.eur.1', 'attributes.0.options.1.inventory', 'attributes.0.options.1.name']);
  });
});

describe('mapServerDetails', () => {
  it('splits details into field errors and the rest, keeping messages and order', () => {
    const result = mapServerDetails(BASE_FIELDS, [
      { field: 'name', message: 'Name is required' },
      { field: 'body', message: 'must be an object' },
      { field: 'attributes[0].items[1].name', message: 'another option is already called "S"' },
      { field: 'colour', message: 'is not a field of this object in Site API v2' },
    ]);
    expect(result).toEqual({
      fieldErrors: [
        { path: 'name', message: 'Name is required' },
        { path: 'attributes.0.options.1.name', message: 'another option is already called "S"' },
      ],
      unmapped: [
        { field: 'body', message: 'must be an object' },
        { field: 'colour', message: 'is not a field of this object in Site API v2' },
      ],
    });
  });

  it('handles no details', () => {
    expect(mapServerDetails(BASE_FIELDS, [])).toEqual({ fieldErrors: [], unmapped: [] });
  });
});
