/**
 * The sandbox's update of a product (`PUT /ecommerce/products/{id}`), as src/contract/products.ts
 * describes the platform's: fields given overwrite, "" clears (the key leaves the record), lists given
 * replace the list, attributes and options with an id update that one, without an id are created, and
 * nothing left out is deleted. Then the product as it would be is held to the create's rules.
 */
import type { AttributeRecord, OptionRecord, WireProductUpdate } from '../../src/contract/products';
import { capDetails, validateProduct } from '../../src/contract/rules';
import type { ErrorDetail } from '../../src/contract/site-api';
import { withoutIds, type StoredProductBody } from './store';

export interface UpdateRefusal {
  message: string;
  details: ErrorDetail[];
  total: number;
}

/** `fields` over `target`: each given value set in place (new keys last), each "" removed; `skip` left alone. */
function apply<T extends object>(target: T, fields: object, skip: readonly string[]): T {
  const out = { ...target } as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (skip.includes(key) || value === undefined) continue;
    if (value === '') delete out[key];
    else out[key] = value;
  }
  // The keys set are the update's own, checked by the update's schema to be the record's.
  return out as T;
}

/** A new attribute's or option's fields: its id first, and no "" (nothing to clear on what is new). */
const created = <T extends { id: string }>(fields: object, id: string, skip: readonly string[]): T => apply({ id } as T, fields, skip);

/**
 * Every id of `update` that is not this product's: an attribute id not among its attributes, an option id
 * not among the options of the attribute it is sent under (a new attribute has none yet).
 */
function unknownIds(current: StoredProductBody, update: WireProductUpdate): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  update.attributes?.forEach((attribute, a) => {
    const existing = attribute.id === undefined ? undefined : current.attributes?.find((known) => known.id === attribute.id);
    if (attribute.id !== undefined && existing === undefined) {
      details.push({ field: `attributes[${a}].id`, message: `is not an attribute of this product (it has no attribute ${attribute.id})` });
    }
    attribute.items?.forEach((option, o) => {
      if (option.id === undefined) return;
      if (existing?.items?.some((known) => known.id === option.id)) return;
      details.push({
        field: `attributes[${a}].items[${o}].id`,
        message:
          existing === undefined
            ? `names option ${option.id}, but this attribute is not one of the product's, so it has no options yet`
            : `is not an option of this attribute (attribute ${existing.id} has no option ${option.id})`,
      });
    });
  });
  return details;
}

/**
 * The product after `update` (already checked by validateProductUpdate), or why it is refused: ids that
 * are not this product's (nothing changed), or a product the create would refuse. `newId` gives the ids
 * of what the update creates. The slug's uniqueness is the store's to check.
 */
export function mergeUpdate(
  current: StoredProductBody,
  update: WireProductUpdate,
  newId: () => string,
): { body: StoredProductBody } | { refused: UpdateRefusal } {
  const unknown = unknownIds(current, update);
  if (unknown.length > 0) {
    const { details } = capDetails(unknown);
    return {
      refused: {
        message: 'The update names attributes or options this product does not have; nothing was changed.',
        details,
        total: unknown.length,
      },
    };
  }
  const merged: StoredProductBody = apply(current, update, ['attributes']);
  if (update.attributes !== undefined) {
    const attributes: AttributeRecord[] = [...(current.attributes ?? [])];
    for (const attribute of update.attributes) {
      const index = attribute.id === undefined ? -1 : attributes.findIndex((known) => known.id === attribute.id);
      const existing = attributes[index];
      if (existing === undefined) {
        const fresh = created<AttributeRecord>(attribute, newId(), ['id', 'items']);
        if (attribute.items !== undefined) fresh.items = attribute.items.map((option) => created<OptionRecord>(option, newId(), ['id']));
        attributes.push(fresh);
        continue;
      }
      const changed = apply(existing, attribute, ['id', 'items']);
      if (attribute.items !== undefined) {
        const items: OptionRecord[] = [...(existing.items ?? [])];
        for (const option of attribute.items) {
          const at = option.id === undefined ? -1 : items.findIndex((known) => known.id === option.id);
          const known = items[at];
          if (known === undefined) items.push(created<OptionRecord>(option, newId(), ['id']));
          else items[at] = apply(known, option, ['id']);
        }
        changed.items = items;
      }
      attributes[index] = changed;
    }
    if (attributes.length > 0 || current.attributes !== undefined) merged.attributes = attributes;
  }
  const body = merged;
  const check = validateProduct(withoutIds(body));
  if (!check.ok) {
    return {
      refused: {
        message:
          'The product as it would be after this update breaks the rules of a product (the fields named are those of the updated ' +
          'product, its attributes and options in their order after the update); nothing was changed.',
        details: check.details,
        total: check.total,
      },
    };
  }
  return { body };
}
