/**
 * The editor's form model: what staff work with. Not the wire model: booleans are booleans, dates are
 * the text typed (or picked) in the date field, prices are the text typed into a currency × tier grid in
 * major units ("19.99"), kept as typed so that a cell that cannot be read is marked, never silently
 * changed. Its shape and empty values derive from the field registry; `codec.ts` turns it into the wire
 * body and back.
 */
import * as z from 'zod/mini';
import type { Currency } from '@/contract/site-api';
import { ATTRIBUTE_FIELDS, OPTION_FIELDS, PRODUCT_FIELDS, type FieldDef } from './registry';

/** Cell text per currency; index i is tier i + 1. */
export type PriceGrid = Record<Currency, string[]>;

type Leaf = string | boolean | string[];

const emptyValueOf = (def: FieldDef): Leaf => (def.kind === 'boolean' ? true : def.kind === 'references' ? [] : '');

/** The empty values of a scope's fields, placed at their paths (`fields.0` builds an array). */
function emptyValues(defs: readonly FieldDef[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const def of defs) {
    const parts = def.path.split('.');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const key = /^\d+$/.test(part) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[key] = emptyValueOf(def);
      else {
        container[key] ??= /^\d+$/.test(parts[i + 1] ?? '') ? [] : {};
        node = container[key] as Record<string, unknown> | unknown[];
      }
    });
  }
  return root;
}

/** A zod schema with the shape of a value tree: strings, booleans, lists of strings, fixed-length arrays. */
function schemaOf(template: unknown, listPaths: ReadonlySet<string>, path = ''): z.ZodMiniType {
  if (typeof template === 'boolean') return z.boolean();
  if (typeof template === 'string') return z.string();
  if (Array.isArray(template)) {
    if (listPaths.has(path)) return z.array(z.string());
    const items = template.map((item, i) => schemaOf(item, listPaths, path ? `${path}.${i}` : String(i)));
    return z.tuple(items as [z.ZodMiniType, ...z.ZodMiniType[]]);
  }
  const shape = Object.fromEntries(
    Object.entries(template as Record<string, unknown>).map(([key, value]) => [key, schemaOf(value, listPaths, path ? `${path}.${key}` : key)]),
  );
  return z.object(shape);
}

const listPathsOf = (defs: readonly FieldDef[]) => new Set(defs.filter((def) => def.kind === 'references').map((def) => def.path));

const PRODUCT_TEMPLATE = emptyValues(PRODUCT_FIELDS);
const ATTRIBUTE_TEMPLATE = emptyValues(ATTRIBUTE_FIELDS);
const OPTION_TEMPLATE = emptyValues(OPTION_FIELDS);

/**
 * The values of the registry's fields of each scope. TypeScript cannot derive paths from a list built at
 * run time, so these types are stated; registry.test.ts holds them to the registry (every field's
 * path exists in the empty values with its kind's type, and nothing else does).
 */
interface OptionValues {
  name: string;
  enabled: boolean;
  /** Option fields 2, 3, 4 and 6, in that order. */
  fields: string[];
  prices: PriceGrid;
  inventory: string;
}
interface AttributeValues {
  name: string;
  enabled: boolean;
}
interface ProductValues {
  name: string;
  slug: string;
  enabled: boolean;
  weighting: string;
  releaseAt: string;
  expiryAt: string;
  categories: string[];
  secureZones: string[];
  /** Product fields 1 to 5. */
  fields: string[];
  /** Inventory settings 1 to 3. */
  inventory: string[];
  prices: PriceGrid;
}

export type OptionForm = OptionValues & {
  /** Stable identity for list rendering and reordering; never sent. */
  key: string;
};
export type AttributeForm = AttributeValues & { key: string; options: OptionForm[] };
export type ProductForm = ProductValues & {
  /** True once the user typed a slug of their own: stop suggesting one from the name. */
  slugEdited: boolean;
  attributes: AttributeForm[];
};

const optionFormSchema = z.extend(schemaOf(OPTION_TEMPLATE, listPathsOf(OPTION_FIELDS)) as z.ZodMiniObject, { key: z.string() });
const attributeFormSchema = z.extend(schemaOf(ATTRIBUTE_TEMPLATE, listPathsOf(ATTRIBUTE_FIELDS)) as z.ZodMiniObject, {
  key: z.string(),
  options: z.array(optionFormSchema),
});
/** Checks a stored draft: the registry's shape, plus the editor's own keys. */
export const productFormSchema = z.extend(schemaOf(PRODUCT_TEMPLATE, listPathsOf(PRODUCT_FIELDS)) as z.ZodMiniObject, {
  slugEdited: z.boolean(),
  attributes: z.array(attributeFormSchema),
}) as unknown as z.ZodMiniType<ProductForm>;

let keyCounter = 0;
/** A key unique within this page's lifetime (and practically across drafts). */
export function newKey(): string {
  keyCounter += 1;
  return `${Date.now().toString(36)}-${keyCounter.toString(36)}-${Math.random().toString(36).slice(2, 7)}`;
}

export function emptyOption(): OptionForm {
  return { ...(structuredClone(OPTION_TEMPLATE) as unknown as OptionValues), key: newKey() };
}

export function emptyAttribute(): AttributeForm {
  return { ...(structuredClone(ATTRIBUTE_TEMPLATE) as unknown as AttributeValues), key: newKey(), options: [emptyOption()] };
}

export function emptyProduct(): ProductForm {
  return { ...(structuredClone(PRODUCT_TEMPLATE) as unknown as ProductValues), slugEdited: false, attributes: [] };
}

/** An empty grid of a scope's shape. */
export function emptyPriceGrid(scope: 'product' | 'option'): PriceGrid {
  return structuredClone((scope === 'product' ? PRODUCT_TEMPLATE : OPTION_TEMPLATE).prices as PriceGrid);
}
