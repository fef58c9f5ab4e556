/**
 * The wire contract of Site Management API v2, exactly as the platform's spec writes it.
 *
 * Browser-safe (no React, no DOM, no Node): the browser, the server and the tests import it.
 * Every scalar on the wire is a JSON string; these schemas check the shape only (the 400 layer).
 * The semantic rules (the 422 layer) live in `rules.ts`.
 */
// zod/mini: the same validation, tree-shakable, so the pages that check bodies stay small.
import * as z from 'zod/mini';
import { CURRENCIES, STATUS_PHRASES, type Currency } from './site-api-basics';

export { API_BASE_PATH, CREATE_PRODUCT_PATH, CURRENCIES, formCasePath, STATUS_PHRASES, type Currency } from './site-api-basics';

export const PRODUCT_PRICE_TIERS = [1, 2, 3, 4] as const;
export const OPTION_PRICE_TIERS = [1, 2] as const;
export const PRODUCT_INVENTORY_SLOTS = [1, 2, 3] as const;
export const PRODUCT_FIELD_SLOTS = [1, 2, 3, 4, 5] as const;
export const OPTION_FIELD_SLOTS = [2, 3, 4, 6] as const;

export type ProductPriceTier = (typeof PRODUCT_PRICE_TIERS)[number];
export type OptionPriceTier = (typeof OPTION_PRICE_TIERS)[number];
export type ProductInventorySlot = (typeof PRODUCT_INVENTORY_SLOTS)[number];
export type ProductFieldSlot = (typeof PRODUCT_FIELD_SLOTS)[number];
export type OptionFieldSlot = (typeof OPTION_FIELD_SLOTS)[number];

export const productPriceKey = <C extends Currency, T extends ProductPriceTier>(currency: C, tier: T) =>
  `module_field_14/product/price/${currency}/${tier}` as const;
export const productInventoryKey = <N extends ProductInventorySlot>(slot: N) => `module_field_14/product/inventory/${slot}` as const;
export const productFieldKey = <N extends ProductFieldSlot>(slot: N) => `module_field_14/product_${slot}` as const;
export const optionPriceKey = <C extends Currency, T extends OptionPriceTier>(currency: C, tier: T) =>
  `module_field_14/product_attribute_option/price/${currency}/${tier}` as const;
export const optionFieldKey = <N extends OptionFieldSlot>(slot: N) => `module_field_14/product_attribute_option_${slot}` as const;
export const OPTION_INVENTORY_KEY = 'module_field_14/product_attribute_option/inventory/1';

export type ProductPriceKey = ReturnType<typeof productPriceKey<Currency, ProductPriceTier>>;
export type ProductInventoryKey = ReturnType<typeof productInventoryKey<ProductInventorySlot>>;
export type ProductFieldKey = ReturnType<typeof productFieldKey<ProductFieldSlot>>;
export type OptionPriceKey = ReturnType<typeof optionPriceKey<Currency, OptionPriceTier>>;
export type OptionFieldKey = ReturnType<typeof optionFieldKey<OptionFieldSlot>>;

export const PRODUCT_PRICE_KEYS: readonly ProductPriceKey[] = CURRENCIES.flatMap((c) =>
  PRODUCT_PRICE_TIERS.map((t) => productPriceKey(c, t)),
);
export const PRODUCT_INVENTORY_KEYS: readonly ProductInventoryKey[] = PRODUCT_INVENTORY_SLOTS.map(productInventoryKey);
export const PRODUCT_FIELD_KEYS: readonly ProductFieldKey[] = PRODUCT_FIELD_SLOTS.map(productFieldKey);
export const OPTION_PRICE_KEYS: readonly OptionPriceKey[] = CURRENCIES.flatMap((c) => OPTION_PRICE_TIERS.map((t) => optionPriceKey(c, t)));
export const OPTION_FIELD_KEYS: readonly OptionFieldKey[] = OPTION_FIELD_SLOTS.map(optionFieldKey);

/** An optional JSON string for each key: the shape of the numbered fields. */
type OptionalString = z.ZodMiniOptional<z.ZodMiniString<string>>;
function optionalStrings<K extends string>(keys: readonly K[]): { [P in K]: OptionalString } {
  const shape: Record<string, OptionalString> = {};
  for (const key of keys) shape[key] = z.optional(z.string());
  // The loop fills exactly the keys of K; TypeScript cannot follow a loop into a mapped type.
  return shape as { [P in K]: OptionalString };
}

/**
 * category_array and secure_zone_array elements: the spec says objects, and we send `{ "id": "158198" }`
 * by default; the platform stores a flat list of id strings, which a site profile can choose to send
 * (`"158198"`, platform-notes). Both are accepted.
 */
export const wireReferenceSchema = z.union([z.strictObject({ id: z.string() }), z.string()]);

export const wireAttributeOptionSchema = z.strictObject({
  name: z.optional(z.string()),
  enabled: z.optional(z.string()),
  ...optionalStrings(OPTION_FIELD_KEYS),
  ...optionalStrings(OPTION_PRICE_KEYS),
  [OPTION_INVENTORY_KEY]: z.optional(z.string()),
});

export const wireAttributeSchema = z.strictObject({
  name: z.optional(z.string()),
  enabled: z.optional(z.string()),
  items: z.optional(z.array(wireAttributeOptionSchema)),
});

export const wireProductSchema = z.strictObject({
  name: z.optional(z.string()),
  slug: z.optional(z.string()),
  enabled: z.optional(z.string()),
  weighting: z.optional(z.string()),
  expiry_date: z.optional(z.string()),
  release_date: z.optional(z.string()),
  category_array: z.optional(z.array(wireReferenceSchema)),
  secure_zone_array: z.optional(z.array(wireReferenceSchema)),
  attributes: z.optional(z.array(wireAttributeSchema)),
  ...optionalStrings(PRODUCT_FIELD_KEYS),
  ...optionalStrings(PRODUCT_INVENTORY_KEYS),
  ...optionalStrings(PRODUCT_PRICE_KEYS),
});

export type WireReference = z.infer<typeof wireReferenceSchema>;
export type WireAttributeOption = z.infer<typeof wireAttributeOptionSchema>;
export type WireAttribute = z.infer<typeof wireAttributeSchema>;
export type WireProduct = z.infer<typeof wireProductSchema>;

/** One entry of `details` on 400 and 422. */
export const errorDetailSchema = z.object({ field: z.string(), message: z.string() });
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

/** The error body of every failed call. */
export const errorBodySchema = z.object({
  error: z.string(),
  message: z.string(),
  code: z.int(),
  details: z.optional(z.array(errorDetailSchema)),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export function errorBody(code: number, message: string, details?: ErrorDetail[]): ErrorBody {
  const body: ErrorBody = { error: STATUS_PHRASES[code] ?? 'Error', message, code };
  if (details) body.details = details;
  return body;
}

/**
 * A form case as the platform returns it. The spec shows only `{}`; platform-notes describes the usual
 * record. Any JSON object is a valid case, so the viewer must not depend on these fields being present.
 */
export const formCaseSchema = z.record(z.string(), z.unknown());
export type FormCase = z.infer<typeof formCaseSchema>;
