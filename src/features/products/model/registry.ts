/**
 * The product's fields, once. Each entry says where a field lives on the wire (its key in the spec),
 * where it lives in the editor's form (its path), which step owns it, what people call it and what kind
 * of value it holds. The codec (form ↔ wire), the mapping of server error paths to form fields, the step
 * of every path, the review rows, the labels and the form's own shape and empty values all derive from
 * this list; adding a field is one entry here (plus its control, where its kind has no generic one).
 *
 * Labels here are the honest defaults of platform-notes; a site profile renames them by wire key.
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
  type Currency,
} from '@/contract/site-api';

export const STEPS = [
  { id: 'basics', label: 'Basics' },
  { id: 'placement', label: 'Placement and details' },
  { id: 'pricing', label: 'Pricing and inventory' },
  { id: 'attributes', label: 'Attributes and options' },
  { id: 'review', label: 'Review' },
] as const;

export type StepId = (typeof STEPS)[number]['id'];

/** Where a field sits: on the product, on each attribute, or on each option of an attribute. */
export type Scope = 'product' | 'attribute' | 'option';

interface FieldBase {
  scope: Scope;
  /** The key in the wire body (relative to its object), exactly as the spec writes it. */
  wire: string;
  /** The react-hook-form path relative to its scope's object, e.g. `prices.usd.0`. */
  path: string;
  step: StepId;
  label: string;
  /** A short note shown with the field: what it probably means, or how to fill it. */
  hint?: string;
}

/**
 * - `text`: one line. `trim` for identifiers (name, slug): everything else is sent as typed.
 * - `multiline`: text with line breaks, sent as typed.
 * - `integer`: a whole number typed as text (trimmed).
 * - `datetime`: a date, or a date and time, typed or picked; epoch seconds on the wire.
 * - `boolean`: a switch; always sent as "true" or "false".
 * - `references`: a list of ids (categories, secure zones).
 * - `money`: one cell of a currency × tier price grid, major units in the form, minor units on the wire.
 * - `choice`: one of a fixed list (a site profile's inventory settings).
 */
export type FieldDef = FieldBase &
  (
    | { kind: 'text'; trim: boolean; alwaysSent?: true; required?: true }
    | { kind: 'multiline' }
    | { kind: 'integer' }
    | { kind: 'datetime'; blankMeans: string }
    | { kind: 'boolean' }
    | {
        kind: 'references';
        noun: string;
        /** How the list goes on the wire: `[{"id": "1"}]` (the spec's objects) or `["1"]` (a site profile's choice). */
        encoding: 'objects' | 'ids';
        /** The site's named entries (from its profile), to pick by name: "Bedding › Throws". */
        named?: readonly { value: string; label: string }[];
      }
    | { kind: 'money'; currency: Currency; tier: number }
    | { kind: 'choice'; options: readonly { value: string; label: string }[] }
  );

export type FieldKind = FieldDef['kind'];
export type MoneyFieldDef = Extract<FieldDef, { kind: 'money' }>;

const productPriceLabels: Readonly<Record<number, { label: string; hint?: string }>> = {
  1: { label: 'Price', hint: 'the price charged at checkout' },
  2: { label: 'Display price (RRP)', hint: 'shown beside the price, e.g. a recommended or “was” price; never charged' },
  3: { label: 'Price tier 3' },
  4: { label: 'Price tier 4' },
};
const optionPriceLabels: Readonly<Record<number, { label: string; hint?: string }>> = {
  1: { label: 'Added to price', hint: 'added to the product’s price when this option is chosen; 0 means no change' },
  2: { label: 'Added to display price' },
};

function moneyDefs(scope: 'product' | 'option', tiers: readonly number[], keyOf: (c: Currency, t: number) => string): MoneyFieldDef[] {
  const labels = scope === 'product' ? productPriceLabels : optionPriceLabels;
  return CURRENCIES.flatMap((currency) =>
    tiers.map((tier, index): MoneyFieldDef => ({
      scope,
      kind: 'money',
      wire: keyOf(currency, tier),
      path: `prices.${currency}.${index}`,
      step: scope === 'product' ? 'pricing' : 'attributes',
      label: labels[tier]?.label ?? `Price tier ${tier}`,
      hint: labels[tier]?.hint,
      currency,
      tier,
    })),
  );
}

/** Every field of the product, in the order the wire body lists them. */
export const PRODUCT_FIELDS: readonly FieldDef[] = [
  {
    scope: 'product',
    kind: 'text',
    trim: true,
    alwaysSent: true,
    required: true,
    wire: 'name',
    path: 'name',
    step: 'basics',
    label: 'Name',
  },
  {
    scope: 'product',
    kind: 'text',
    trim: true,
    wire: 'slug',
    path: 'slug',
    step: 'basics',
    label: 'Slug',
    hint: 'The product’s address on the site: lower-case words joined by hyphens. Suggested from the name until you edit it.',
  },
  {
    scope: 'product',
    kind: 'boolean',
    wire: 'enabled',
    path: 'enabled',
    step: 'basics',
    label: 'Enabled',
    hint: 'Visible on the site (within the release and expiry dates).',
  },
  {
    scope: 'product',
    kind: 'integer',
    wire: 'weighting',
    path: 'weighting',
    step: 'basics',
    label: 'Weighting',
    hint: 'Sort position: a whole number. Leave empty for the site’s default.',
  },
  {
    scope: 'product',
    kind: 'datetime',
    blankMeans: 'visible from now',
    wire: 'release_date',
    path: 'releaseAt',
    step: 'basics',
    label: 'Release date',
    hint: 'Shown from this time.',
  },
  {
    scope: 'product',
    kind: 'datetime',
    blankMeans: 'never expires',
    wire: 'expiry_date',
    path: 'expiryAt',
    step: 'basics',
    label: 'Expiry date',
    hint: 'Hidden after this time; must be after release. Leave empty: never expires.',
  },
  {
    scope: 'product',
    kind: 'references',
    noun: 'category',
    encoding: 'objects',
    wire: 'category_array',
    path: 'categories',
    step: 'placement',
    label: 'Categories',
    hint: 'Identifiers of the categories the product appears in, e.g. 158198. Press Enter or a comma after each.',
  },
  {
    scope: 'product',
    kind: 'references',
    noun: 'secure zone',
    encoding: 'objects',
    wire: 'secure_zone_array',
    path: 'secureZones',
    step: 'placement',
    label: 'Secure zones',
    hint: 'Identifiers of the secure zones that may see the product. Leave empty for everyone.',
  },
  ...PRODUCT_FIELD_SLOTS.map((slot, index): FieldDef => ({
    scope: 'product',
    // Fields 1 and 2 are long by default (the platform's built-ins include a description).
    ...(slot <= 2 ? { kind: 'multiline' as const } : { kind: 'text' as const, trim: false }),
    wire: productFieldKey(slot),
    path: `fields.${index}`,
    step: 'placement',
    label: `Product field ${slot}`,
  })),
  ...PRODUCT_INVENTORY_SLOTS.map((slot, index): FieldDef => ({
    scope: 'product',
    kind: 'text',
    trim: false,
    wire: productInventoryKey(slot),
    path: `inventory.${index}`,
    step: 'pricing',
    label: `Inventory setting ${slot}`,
  })),
  ...moneyDefs('product', PRODUCT_PRICE_TIERS, productPriceKey as (c: Currency, t: number) => string),
];

/** The fields of one attribute (its options are the `items` list). */
export const ATTRIBUTE_FIELDS: readonly FieldDef[] = [
  {
    scope: 'attribute',
    kind: 'text',
    trim: true,
    alwaysSent: true,
    required: true,
    wire: 'name',
    path: 'name',
    step: 'attributes',
    label: 'Attribute name',
  },
  { scope: 'attribute', kind: 'boolean', wire: 'enabled', path: 'enabled', step: 'attributes', label: 'Attribute enabled' },
];

/** The fields of one option of an attribute. */
export const OPTION_FIELDS: readonly FieldDef[] = [
  {
    scope: 'option',
    kind: 'text',
    trim: true,
    alwaysSent: true,
    required: true,
    wire: 'name',
    path: 'name',
    step: 'attributes',
    label: 'Option name',
  },
  { scope: 'option', kind: 'boolean', wire: 'enabled', path: 'enabled', step: 'attributes', label: 'Option enabled' },
  ...OPTION_FIELD_SLOTS.map((slot, index): FieldDef => ({
    scope: 'option',
    kind: 'text',
    trim: false,
    wire: optionFieldKey(slot),
    path: `fields.${index}`,
    step: 'attributes',
    label: `Option field ${slot}`,
  })),
  ...moneyDefs('option', OPTION_PRICE_TIERS, optionPriceKey as (c: Currency, t: number) => string),
  {
    scope: 'option',
    kind: 'integer',
    wire: OPTION_INVENTORY_KEY,
    path: 'inventory',
    step: 'attributes',
    label: 'Stock',
    hint: 'How many of this option are in stock: a whole number.',
  },
];

/**
 * The fields of one site, per scope: the registry as a site profile shapes it (its labels, its currencies,
 * its hidden tiers). Everything that reads fields takes one of these, so nothing can show a field the site
 * does not use or send it.
 */
export interface SiteFields {
  product: readonly FieldDef[];
  attribute: readonly FieldDef[];
  option: readonly FieldDef[];
}

/** The registry as it is, for a site without a profile: every field, honest default labels. */
export const BASE_FIELDS: SiteFields = { product: PRODUCT_FIELDS, attribute: ATTRIBUTE_FIELDS, option: OPTION_FIELDS };

interface Indexes {
  wire: Record<Scope, ReadonlyMap<string, FieldDef>>;
  path: Record<Scope, ReadonlyMap<string, FieldDef>>;
}
const indexes = new WeakMap<SiteFields, Indexes>();
function indexOf(fields: SiteFields): Indexes {
  let found = indexes.get(fields);
  if (!found) {
    const by = (key: 'wire' | 'path') => ({
      product: new Map(fields.product.map((def) => [def[key], def])),
      attribute: new Map(fields.attribute.map((def) => [def[key], def])),
      option: new Map(fields.option.map((def) => [def[key], def])),
    });
    found = { wire: by('wire'), path: by('path') };
    indexes.set(fields, found);
  }
  return found;
}

export const fieldByWire = (fields: SiteFields, scope: Scope, wire: string): FieldDef | undefined => indexOf(fields).wire[scope].get(wire);
export const fieldByPath = (fields: SiteFields, scope: Scope, path: string): FieldDef | undefined => indexOf(fields).path[scope].get(path);

/** The money cells of a scope, currencies in CURRENCIES order, then tiers. */
export const moneyFields = (fields: SiteFields, scope: 'product' | 'option'): MoneyFieldDef[] =>
  fields[scope].filter((def): def is MoneyFieldDef => def.kind === 'money');

/** A price grid's shape: its rows (currencies) and columns (tiers, with the form index of each). */
export function gridOf(fields: SiteFields, scope: 'product' | 'option') {
  const cells = moneyFields(fields, scope);
  const currencies = CURRENCIES.filter((c) => cells.some((def) => def.currency === c));
  const columns = [...new Map(cells.map((def) => [def.tier, def])).values()]
    .sort((a, b) => a.tier - b.tier)
    .map((def) => ({ tier: def.tier, index: Number(def.path.split('.').at(-1)), label: def.label, hint: def.hint }));
  return { currencies, columns };
}

const OPTION_PATH = /^attributes\.(\d+)\.options\.(\d+)\.(.+)$/;
const ATTRIBUTE_PATH = /^attributes\.(\d+)\.(.+)$/;

/** A full form path resolved to its scope, field and position: `attributes.1.options.2.prices.usd.0`. */
export interface ResolvedPath {
  def: FieldDef;
  attribute?: number;
  option?: number;
}

export function resolveFormPath(fields: SiteFields, path: string): ResolvedPath | null {
  const option = OPTION_PATH.exec(path);
  if (option) {
    const def = fieldByPath(fields, 'option', option[3] ?? '');
    return def ? { def, attribute: Number(option[1]), option: Number(option[2]) } : null;
  }
  const attribute = ATTRIBUTE_PATH.exec(path);
  if (attribute) {
    const def = fieldByPath(fields, 'attribute', attribute[2] ?? '');
    return def ? { def, attribute: Number(attribute[1]) } : null;
  }
  const def = fieldByPath(fields, 'product', path);
  return def ? { def } : null;
}

const STEP_OF_PRODUCT_ROOT: ReadonlyMap<string, StepId> = new Map([
  ...PRODUCT_FIELDS.map((def): [string, StepId] => [def.path.split('.', 1)[0] ?? def.path, def.step]),
  // The editor's own bookkeeping beside the slug, and the list that holds attributes and options.
  ['slugEdited', 'basics'],
  ['attributes', 'attributes'],
]);

/** The step of a form path such as `prices.usd.0`; anything no step owns (e.g. "") belongs to review. */
export function stepOfPath(path: string): StepId {
  return STEP_OF_PRODUCT_ROOT.get(path.split('.', 1)[0] ?? '') ?? 'review';
}

/** The form paths a step validates before moving on (react-hook-form's `trigger` names). */
export function pathsOfStep(fields: SiteFields, step: Exclude<StepId, 'review'>): string[] {
  if (step === 'attributes') return ['attributes'];
  return fields.product.filter((def) => def.step === step).map((def) => def.path);
}

/**
 * What people call the field at a full form path, counting from 1: "Name", "USD, Display price (RRP)",
 * "Attribute 2 › Option 3 › EUR, Added to price", with the site's own labels.
 */
export function describePath(fields: SiteFields, path: string): string {
  const resolved = resolveFormPath(fields, path);
  if (!resolved) {
    const root = /^attributes\.(\d+)(?:\.options\.(\d+))?/.exec(path);
    if (!root) return path;
    return root[2] === undefined ? `Attribute ${Number(root[1]) + 1}` : `Attribute ${Number(root[1]) + 1} › Option ${Number(root[2]) + 1}`;
  }
  const { def } = resolved;
  const name = def.kind === 'money' ? `${def.currency.toUpperCase()}, ${def.label}` : def.label;
  const where: string[] = [];
  if (resolved.attribute !== undefined) where.push(`Attribute ${resolved.attribute + 1}`);
  if (resolved.option !== undefined) where.push(`Option ${resolved.option + 1}`);
  return [...where, name].join(' › ');
}
