/**
 * Test fixtures for the contract: an option and a product that use every field of the spec, with
 * values that follow every rule of platform-notes. Shared by the contract's and the server's tests.
 */
import {
  OPTION_FIELD_KEYS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_KEYS,
  PRODUCT_FIELD_KEYS,
  PRODUCT_INVENTORY_KEYS,
  PRODUCT_PRICE_KEYS,
} from './site-api';

type Json = Record<string, unknown>;

export function fullOption(name: string, seed: number): Json {
  const option: Json = { name, enabled: 'true' };
  OPTION_FIELD_KEYS.forEach((key, i) => (option[key] = `option field ${i} of ${name}`));
  OPTION_PRICE_KEYS.forEach((key, i) => (option[key] = String(seed * 100 + i)));
  option[OPTION_INVENTORY_KEY] = String(seed);
  return option;
}

/** The attributes of `fullProduct` unless told otherwise: two attributes, five options. */
const defaultAttributes = () => [
  { name: 'Colour', enabled: 'true', items: [fullOption('Sand', 1), fullOption('Charcoal', 2), fullOption('Olive', 3)] },
  { name: 'Size', enabled: 'false', items: [fullOption('Single', 0), fullOption('Double', 5)] },
];

export function fullProduct(slug = 'linen-throw-2026', attributes: Json[] = defaultAttributes()): Json {
  const product: Json = {
    name: 'Linen throw',
    slug,
    enabled: 'true',
    weighting: '10',
    release_date: '1767225600',
    expiry_date: '1798761600',
    category_array: [{ id: '158198' }, { id: '158199' }],
    secure_zone_array: [{ id: '42' }],
    attributes,
  };
  PRODUCT_FIELD_KEYS.forEach((key, i) => (product[key] = `Product field ${i + 1}`));
  PRODUCT_INVENTORY_KEYS.forEach((key, i) => (product[key] = String(i * 7)));
  PRODUCT_PRICE_KEYS.forEach((key, i) => (product[key] = String(1999 + i)));
  return product;
}
