/**
 * The registry as one site's profile shapes it: its names for the numbered fields, the currencies it sells
 * in (the grids show only those, and the others are never sent), the price tiers it hides, its inventory
 * settings as numbers or choices, and how its categories go on the wire.
 */
import type { SiteInfo } from '@/contract/site-info';
import { flattenReferences, type ReferenceNode } from '@/contract/site-profile';
import { emptyProduct, type ProductForm } from './product-form';
import { BASE_FIELDS, type FieldDef, type MoneyFieldDef, type SiteFields } from './registry';

/** The parts of a site the fields depend on. */
export type SiteShape = Pick<SiteInfo, 'currencies' | 'labels' | 'references'>;

/** A site's categories or secure zones as choices, each named with the names above it. */
const namedEntries = (nodes: readonly ReferenceNode[]) =>
  flattenReferences(nodes).map((node) => ({ value: node.id, label: [...node.trail, node.name].join(' › ') }));

const slotOf = (wire: string) => /(\d+)$/.exec(wire)?.[1] ?? '';

type TierLabels = NonNullable<NonNullable<SiteShape['labels']>['priceTiers']>;

/** A price cell of the site: none for a currency it does not sell in or a tier it hides; its tier's name. */
function moneyField(def: MoneyFieldDef, site: SiteShape, tiers: TierLabels | undefined): FieldDef | null {
  if (!site.currencies.includes(def.currency)) return null;
  const tier = tiers?.[String(def.tier) as '1'];
  if (tier?.hidden) return null;
  // A renamed tier drops the default's hint, which described the default's meaning.
  return { ...def, label: tier?.label ?? def.label, hint: tier?.help ?? (tier?.label ? undefined : def.hint) };
}

function productField(def: FieldDef, site: SiteShape): FieldDef | null {
  const labels = site.labels;
  const wire = def.wire;
  if (def.kind === 'money') return moneyField(def, site, labels?.priceTiers);
  if (wire.startsWith('module_field_14/product_')) {
    const field = labels?.productFields?.[slotOf(wire) as '1'];
    if (!field) return def;
    const shape: FieldDef = field.multiline ? { ...def, kind: 'multiline' } : { ...def, kind: 'text', trim: false };
    return { ...shape, label: field.label, hint: field.help };
  }
  if (wire.startsWith('module_field_14/product/inventory/')) {
    const setting = labels?.inventory?.[slotOf(wire) as '1'];
    if (!setting) return def;
    const base = { ...def, label: setting.label, hint: setting.help };
    if (setting.kind === 'choice') return { ...base, kind: 'choice', options: setting.choices };
    if (setting.kind === 'number') return { ...base, kind: 'integer' };
    return { ...base, kind: 'text', trim: false };
  }
  if (def.kind === 'references') {
    const list = wire === 'category_array' ? site.references?.categories : site.references?.secureZones;
    const named = list && list.length > 0 ? namedEntries(list) : undefined;
    const encoding = wire === 'category_array' ? (site.references?.categoryEncoding ?? 'objects') : def.encoding;
    return { ...def, encoding, named, hint: named ? `Pick by name; type to search.` : def.hint };
  }
  return def;
}

function optionField(def: FieldDef, site: SiteShape): FieldDef | null {
  const labels = site.labels;
  if (def.kind === 'money') return moneyField(def, site, labels?.optionPriceTiers);
  if (def.wire.startsWith('module_field_14/product_attribute_option_')) {
    const field = labels?.optionFields?.[slotOf(def.wire) as '2'];
    return field ? { ...def, label: field.label, hint: field.help } : def;
  }
  if (def.path === 'inventory' && labels?.optionStock) {
    return { ...def, label: labels.optionStock.label, hint: labels.optionStock.help ?? def.hint };
  }
  return def;
}

const cache = new WeakMap<SiteShape, SiteFields>();

/** The site's fields; the registry as it is for a site without a profile. */
export function fieldsForSite(site: SiteShape | undefined): SiteFields {
  if (!site) return BASE_FIELDS;
  let fields = cache.get(site);
  if (!fields) {
    fields = {
      product: BASE_FIELDS.product.flatMap((def) => productField(def, site) ?? []),
      attribute: BASE_FIELDS.attribute,
      option: BASE_FIELDS.option.flatMap((def) => optionField(def, site) ?? []),
    };
    cache.set(site, fields);
  }
  return fields;
}

/** A new, empty product with the site's defaults (enabled, weighting, categories) filled in. */
export function newProductFor(site: Pick<SiteInfo, 'defaults'> | undefined): ProductForm {
  const product = emptyProduct();
  const defaults = site?.defaults;
  if (!defaults) return product;
  return {
    ...product,
    enabled: defaults.enabled ?? product.enabled,
    weighting: defaults.weighting ?? product.weighting,
    categories: defaults.categories ? [...defaults.categories] : product.categories,
  };
}
