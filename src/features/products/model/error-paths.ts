/**
 * Wire paths (`details[].field` of the contract's rules and of the server's 400/422) → form paths, so a
 * server error lands on the field the user typed into. Built from the contract's key helpers, so a key
 * renamed there is renamed here.
 */
import {
  CURRENCIES,
  OPTION_FIELD_SLOTS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_TIERS,
  PRODUCT_FIELD_SLOTS,
  PRODUCT_INVENTORY_SLOTS,
  PRODUCT_PRICE_TIERS,
  optionFieldKey,
  optionPriceKey,
  productFieldKey,
  productInventoryKey,
  productPriceKey,
  type ErrorDetail,
} from '@/contract/site-api';
import type { FormProblem } from './codec';

const PRODUCT_PATHS = new Map<string, string>([
  ['name', 'name'],
  ['slug', 'slug'],
  ['enabled', 'enabled'],
  ['weighting', 'weighting'],
  ['release_date', 'releaseAt'],
  ['expiry_date', 'expiryAt'],
  ...PRODUCT_FIELD_SLOTS.map((slot, i): [string, string] => [productFieldKey(slot), `fields.${i}`]),
  ...PRODUCT_INVENTORY_SLOTS.map((slot, i): [string, string] => [productInventoryKey(slot), `inventory.${i}`]),
  ...CURRENCIES.flatMap((c) =>
    PRODUCT_PRICE_TIERS.map((tier, i): [string, string] => [productPriceKey(c, tier), `prices.${c}.${i}`]),
  ),
]);

/** Paths inside one option, relative to `attributes.N.options.M`. */
const OPTION_PATHS = new Map<string, string>([
  ['name', 'name'],
  ['enabled', 'enabled'],
  ...OPTION_FIELD_SLOTS.map((slot, i): [string, string] => [optionFieldKey(slot), `fields.${i}`]),
  ...CURRENCIES.flatMap((c) =>
    OPTION_PRICE_TIERS.map((tier, i): [string, string] => [optionPriceKey(c, tier), `prices.${c}.${i}`]),
  ),
  [OPTION_INVENTORY_KEY, 'inventory'],
]);

const INDEX = '(0|[1-9]\\d*)';
// The whole list is one field in the editor, so an element's id maps to the list.
const REFERENCE_LIST = /^(category_array|secure_zone_array)(?:\[(?:0|[1-9]\d*)\](?:\.id)?)?$/;
const ATTRIBUTE_FIELD = new RegExp(`^attributes\\[${INDEX}\\]\\.(name|enabled)$`);
const OPTION_FIELD = new RegExp(`^attributes\\[${INDEX}\\]\\.items\\[${INDEX}\\]\\.(.+)$`);

/**
 * The form path of a wire path, or null when it names no single editable field
 * (`body`, `Content-Type`, `attributes[1]`, `attributes[1].items`, unknown keys).
 */
export function wireFieldToFormPath(field: string): string | null {
  const product = PRODUCT_PATHS.get(field);
  if (product !== undefined) return product;

  const list = REFERENCE_LIST.exec(field);
  if (list) return list[1] === 'category_array' ? 'categories' : 'secureZones';

  const attribute = ATTRIBUTE_FIELD.exec(field);
  if (attribute) return `attributes.${attribute[1]}.${attribute[2]}`;

  const option = OPTION_FIELD.exec(field);
  const inOption = option ? OPTION_PATHS.get(option[3] ?? '') : undefined;
  if (option && inOption !== undefined) return `attributes.${option[1]}.options.${option[2]}.${inOption}`;

  return null;
}

/** Splits server details into errors for form fields and the rest (shown in a summary). */
export function mapServerDetails(details: readonly ErrorDetail[]): { fieldErrors: FormProblem[]; unmapped: ErrorDetail[] } {
  const fieldErrors: FormProblem[] = [];
  const unmapped: ErrorDetail[] = [];
  for (const detail of details) {
    const path = wireFieldToFormPath(detail.field);
    if (path === null) unmapped.push(detail);
    else fieldErrors.push({ path, message: detail.message });
  }
  return { fieldErrors, unmapped };
}
