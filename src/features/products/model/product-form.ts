/**
 * The editor's form model: what staff work with. Not the wire model: booleans are booleans, dates are
 * the text typed (or picked) in the date field, prices are the text typed into a currency × tier grid in
 * major units ("19.99"), kept as typed so that a cell that cannot be read is marked, never silently
 * changed. `codec.ts` turns it into the wire body and back.
 *
 * One schema states the shape, and the types are inferred from it. The empty values are the registry's
 * fields placed at their paths, read through that schema, so a registry path the schema lacks fails on
 * load; registry.test.ts holds each field's path to its kind's type. The per-site rules (what a price or
 * a date must be) are not shape: validate.ts checks them, as a refinement over values of this type.
 */
import * as z from 'zod/mini';
import {
  CURRENCIES,
  OPTION_FIELD_SLOTS,
  OPTION_PRICE_TIERS,
  PRODUCT_FIELD_SLOTS,
  PRODUCT_INVENTORY_SLOTS,
  PRODUCT_PRICE_TIERS,
} from '@/contract/site-api';
import { ATTRIBUTE_FIELDS, OPTION_FIELDS, PRODUCT_FIELDS, type FieldDef } from './registry';

/** `count` texts, one per numbered slot or tier. */
const texts = (count: number) => z.array(z.string()).check(z.length(count));
/** Cell text per currency; index i is tier i + 1. Every currency is present, whatever the site sells in. */
const priceGrid = (tiers: number) => z.record(z.enum(CURRENCIES), texts(tiers));

const optionValues = z.object({
  name: z.string(),
  enabled: z.boolean(),
  /** Option fields 2, 3, 4 and 6, in that order. */
  fields: texts(OPTION_FIELD_SLOTS.length),
  prices: priceGrid(OPTION_PRICE_TIERS.length),
  inventory: z.string(),
});
const attributeValues = z.object({ name: z.string(), enabled: z.boolean() });
const productValues = z.object({
  name: z.string(),
  slug: z.string(),
  enabled: z.boolean(),
  weighting: z.string(),
  releaseAt: z.string(),
  expiryAt: z.string(),
  categories: z.array(z.string()),
  secureZones: z.array(z.string()),
  /** Product fields 1 to 5. */
  fields: texts(PRODUCT_FIELD_SLOTS.length),
  /** Inventory settings 1 to 3. */
  inventory: texts(PRODUCT_INVENTORY_SLOTS.length),
  prices: priceGrid(PRODUCT_PRICE_TIERS.length),
});

/** Stable identity for list rendering and reordering; never sent. */
const key = z.string();
/**
 * The platform's id of an attribute or option that exists ('' for a new one): sent on an update so the
 * platform changes that item rather than creating another. Drafts stored before ids existed read as ''.
 */
const id = z._default(z.string(), '');
const optionFormSchema = z.extend(optionValues, { key, id });
const attributeFormSchema = z.extend(attributeValues, { key, id, options: z.array(optionFormSchema) });
/** The whole form: the registry's fields plus the editor's own keys. Also checks a stored draft. */
export const productFormSchema = z.extend(productValues, {
  /** True once the user typed a slug of their own: stop suggesting one from the name. */
  slugEdited: z.boolean(),
  attributes: z.array(attributeFormSchema),
});

export type PriceGrid = z.infer<typeof productValues>['prices'];
export type OptionForm = z.infer<typeof optionFormSchema>;
export type AttributeForm = z.infer<typeof attributeFormSchema>;
export type ProductForm = z.infer<typeof productFormSchema>;

const emptyValueOf = (def: FieldDef) => (def.kind === 'boolean' ? true : def.kind === 'references' ? [] : '');

/** The empty values of a scope's fields, placed at their paths (`fields.0` builds an array). */
function emptyValues(defs: readonly FieldDef[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const def of defs) {
    const parts = def.path.split('.');
    let node: Record<string | number, unknown> = root;
    parts.forEach((part, i) => {
      const at = /^\d+$/.test(part) ? Number(part) : part;
      if (i === parts.length - 1) node[at] = emptyValueOf(def);
      else node = (node[at] ??= /^\d+$/.test(parts[i + 1] ?? '') ? [] : {}) as Record<string | number, unknown>;
    });
  }
  return root;
}

const PRODUCT_TEMPLATE = productValues.parse(emptyValues(PRODUCT_FIELDS));
const ATTRIBUTE_TEMPLATE = attributeValues.parse(emptyValues(ATTRIBUTE_FIELDS));
const OPTION_TEMPLATE = optionValues.parse(emptyValues(OPTION_FIELDS));

let keyCounter = 0;
/** A key unique within this page's lifetime (and practically across drafts). */
export function newKey(): string {
  keyCounter += 1;
  return `${Date.now().toString(36)}-${keyCounter.toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export function emptyOption(): OptionForm {
  return { ...structuredClone(OPTION_TEMPLATE), key: newKey(), id: '' };
}

export function emptyAttribute(): AttributeForm {
  return { ...structuredClone(ATTRIBUTE_TEMPLATE), key: newKey(), id: '', options: [emptyOption()] };
}

export function emptyProduct(): ProductForm {
  return { ...structuredClone(PRODUCT_TEMPLATE), slugEdited: false, attributes: [] };
}

/** An empty grid of a scope's shape. */
export function emptyPriceGrid(scope: 'product' | 'option'): PriceGrid {
  return structuredClone((scope === 'product' ? PRODUCT_TEMPLATE : OPTION_TEMPLATE).prices);
}
