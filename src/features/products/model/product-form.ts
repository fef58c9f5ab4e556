/**
 * The editor's form model: what staff work with. Not the wire model: booleans are booleans, dates are
 * local date-times, prices are the text typed into a currency × tier grid in major units ("19.99"),
 * kept as typed so that a cell that cannot be read is marked, never silently changed.
 * `codec.ts` turns it into the wire body and back.
 */
import * as z from 'zod/mini';
import {
  CURRENCIES,
  OPTION_FIELD_SLOTS,
  OPTION_PRICE_TIERS,
  PRODUCT_FIELD_SLOTS,
  PRODUCT_INVENTORY_SLOTS,
  PRODUCT_PRICE_TIERS,
  type Currency,
} from '@/contract/site-api';

/** Cell text per currency; index i is tier i + 1. */
export type PriceGrid = Record<Currency, string[]>;

const stringList = (length: number) => z.array(z.string()).check(z.length(length));
const priceGridSchema = (tiers: number) =>
  z.object(
    Object.fromEntries(CURRENCIES.map((c) => [c, stringList(tiers)])) as Record<Currency, ReturnType<typeof stringList>>,
  );

/** Local date-time "YYYY-MM-DD HH:mm:ss" (the date picker's format), or "" for none. */
export const localDateTimeSchema = z.union([z.literal(''), z.string().check(z.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/))]);

export const optionFormSchema = z.object({
  /** Stable identity for list rendering and reordering; never sent. */
  key: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  /** Option fields 2, 3, 4 and 6, in that order (OPTION_FIELD_SLOTS). */
  fields: stringList(OPTION_FIELD_SLOTS.length),
  prices: priceGridSchema(OPTION_PRICE_TIERS.length),
  inventory: z.string(),
});

export const attributeFormSchema = z.object({
  key: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  options: z.array(optionFormSchema),
});

export const productFormSchema = z.object({
  name: z.string(),
  slug: z.string(),
  /** True once the user typed a slug of their own: stop suggesting one from the name. */
  slugEdited: z.boolean(),
  enabled: z.boolean(),
  weighting: z.string(),
  releaseAt: localDateTimeSchema,
  expiryAt: localDateTimeSchema,
  categories: z.array(z.string()),
  secureZones: z.array(z.string()),
  /** Product fields 1 to 5. */
  fields: stringList(PRODUCT_FIELD_SLOTS.length),
  /** Inventory settings 1 to 3. */
  inventory: stringList(PRODUCT_INVENTORY_SLOTS.length),
  prices: priceGridSchema(PRODUCT_PRICE_TIERS.length),
  attributes: z.array(attributeFormSchema),
});

export type OptionForm = z.infer<typeof optionFormSchema>;
export type AttributeForm = z.infer<typeof attributeFormSchema>;
export type ProductForm = z.infer<typeof productFormSchema>;

let keyCounter = 0;
/** A key unique within this page's lifetime (and practically across drafts). */
export function newKey(): string {
  keyCounter += 1;
  return `${Date.now().toString(36)}-${keyCounter.toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export function emptyPriceGrid(tiers: number): PriceGrid {
  return Object.fromEntries(CURRENCIES.map((c) => [c, Array.from({ length: tiers }, () => '')])) as PriceGrid;
}

export function emptyOption(): OptionForm {
  return {
    key: newKey(),
    name: '',
    enabled: true,
    fields: OPTION_FIELD_SLOTS.map(() => ''),
    prices: emptyPriceGrid(OPTION_PRICE_TIERS.length),
    inventory: '',
  };
}

export function emptyAttribute(): AttributeForm {
  return { key: newKey(), name: '', enabled: true, options: [emptyOption()] };
}

export function emptyProduct(): ProductForm {
  return {
    name: '',
    slug: '',
    slugEdited: false,
    enabled: true,
    weighting: '',
    releaseAt: '',
    expiryAt: '',
    categories: [],
    secureZones: [],
    fields: PRODUCT_FIELD_SLOTS.map(() => ''),
    inventory: PRODUCT_INVENTORY_SLOTS.map(() => ''),
    prices: emptyPriceGrid(PRODUCT_PRICE_TIERS.length),
    attributes: [],
  };
}
