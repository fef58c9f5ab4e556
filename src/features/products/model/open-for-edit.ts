/**
 * Opening a product read from the platform in the editor.
 *
 *   openForEdit(record, unknown, settings) → { form, readOnly }
 *
 * - `record` and `unknown`: what `readProductRecord` (src/contract/products.ts) read from the answer.
 * - `form`: the product in the editor's form, through the create's own codec: prices in the site's
 *   decimals, dates in the person's time zone, every field (one the site hides is kept in the form, never
 *   shown or sent), the ids of attributes and options kept.
 * - `readOnly`: why the editor may not save this product, one entry per field, in words. Empty: it may.
 *   The form is proven faithful by encoding it again and comparing, field by field, with the record over
 *   the fields the site shows ("" and absent are the same): any field a save would change is named, with
 *   why ("a value the editor cannot show exactly: …"), and so is every field the editor does not know
 *   ("a field site-admin does not know: colour"). A product with any opens read-only rather than losing
 *   something on save.
 */
import type { ProductRecord, UnknownField } from '@/contract/products';
import { decodeProduct, encodeProduct, type ProductSettings } from './codec';
import { localTimeZone } from './dates';
import type { ProductForm } from './product-form';
import { fieldByWire, type FieldDef } from './registry';
import { comparable, fieldName, flatten, itemName, sameValue, type FlatProduct } from './wire-fields';

export interface ReadOnlyReason {
  /** The field in words: `Attribute “Size” › Option “S” › USD, Added to price`. */
  field: string;
  why: string;
}

export interface OpenedProduct {
  form: ProductForm;
  readOnly: ReadOnlyReason[];
}

const quoted = (value: unknown) => (typeof value === 'string' ? `“${value}”` : JSON.stringify(value));

function whyNotExact(def: FieldDef, from: unknown, to: unknown, settings: ProductSettings): string {
  const prefix = 'a value the editor cannot show exactly: ';
  if (def.kind === 'money') return `${prefix}${quoted(from)} as a price with ${settings.decimals} decimals (whole minor units)`;
  if (def.kind === 'datetime') return `${prefix}${quoted(from)} as a date and time in ${localTimeZone()}`;
  if (def.kind === 'references') return `${prefix}${quoted(JSON.stringify(from))} as a list of identifiers`;
  if (def.kind === 'boolean') return `${prefix}${quoted(from)} as on or off`;
  const sent = comparable(def, to);
  return `${prefix}${quoted(from)} would be saved as ${sent === '' ? 'empty' : quoted(sent)}`;
}

/** `attributes[0].items[2].colour` → the flat item's key and the field's key, by position in the record. */
function locate(record: FlatProduct, path: string): { itemKey?: string; key: string } {
  const match = /^attributes\[(\d+)\](?:\.items\[(\d+)\])?(?:\.(.+))?$/.exec(path);
  // A wrong-typed value's path goes inside it (`category_array[0]`): the field is its first key.
  const first = (key: string) => key.split(/[.[]/, 1)[0] ?? key;
  if (!match) return { key: first(path) };
  const attributes = [...record.items.values()].filter((item) => item.scope === 'attribute');
  const attribute = attributes[Number(match[1])];
  const options = attribute ? [...record.items.values()].filter((item) => item.parent === attribute.key) : [];
  const item = match[2] === undefined ? attribute : options[Number(match[2])];
  return { itemKey: item?.key, key: first(match[3] ?? (match[2] === undefined ? 'attribute' : 'option')) };
}

export function openForEdit(record: ProductRecord, unknown: readonly UnknownField[], settings: ProductSettings): OpenedProduct {
  const form = decodeProduct(record, settings.decimals);
  const readOnly: ReadOnlyReason[] = [];
  const named = new Set<string>();
  const add = (field: string, why: string) => {
    if (named.has(field)) return;
    named.add(field);
    readOnly.push({ field, why });
  };

  const before = flatten(record);
  for (const field of unknown) {
    const { itemKey, key } = locate(before, field.path);
    const item = itemKey === undefined ? undefined : before.items.get(itemKey);
    const scope = item?.scope ?? 'product';
    const known = fieldByWire(settings.fields, scope, key);
    const where = itemKey === undefined ? '' : itemName(before, itemKey);
    const words = known ? fieldName(known, settings.fields) : key;
    add(
      where === '' ? words : `${where} › ${words}`,
      // readProductRecord lists a known key with a value of the wrong type with the schema's words.
      known ? `a value the editor cannot show exactly: ${String(field.value)}` : `a field site-admin does not know: ${key}`,
    );
  }

  const { body } = encodeProduct(form, settings);
  const after = flatten(body);
  const compare = (defs: readonly FieldDef[], from: Record<string, unknown>, to: Record<string, unknown>, where: string) => {
    for (const def of defs) {
      if (sameValue(def, from[def.wire], to[def.wire])) continue;
      const words = fieldName(def, settings.fields);
      add(where === '' ? words : `${where} › ${words}`, whyNotExact(def, from[def.wire], to[def.wire], settings));
    }
  };
  compare(settings.fields.product, before.product, after.product, '');
  for (const item of before.items.values()) {
    const sent = after.items.get(item.key);
    const where = itemName(before, item.key);
    if (!sent) add(where, 'the editor would not send this item back as it is');
    else compare(settings.fields[item.scope], item.wire, sent.wire, where);
  }
  return { form, readOnly };
}
