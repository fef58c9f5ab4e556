/**
 * When a save finds the product changed on the platform since it was opened: what they changed beside
 * what I changed, field by field, and a form that keeps the person's choice per field.
 *
 *   mergeConflict(base, theirs, form, settings) → { fields, theirs, form }
 *   applyChoices(conflict, choices, settings) → { base, form }
 *
 * - `base`: the product as it was opened; `theirs`: as read again now; `form`: the person's edit.
 * - `fields`: every field that either side changed (over the site's fields), with its value in the
 *   base, theirs and mine, as the person reads them and as on the wire; `theirsChanged`, `mineChanged`,
 *   and `conflict` when both changed it to different values. A removed attribute or option is mine
 *   "Enabled: Yes → No" (the update switches it off); a new one is one row per field it has.
 * - `applyChoices`: a new form built on `theirs` (so a save after choosing diffs against theirs, and the
 *   next If-Match is theirs' fingerprint): each field takes "theirs" or "mine" as chosen; a field without
 *   a choice keeps mine where I changed it, else theirs. A new attribute or option is kept or left whole,
 *   by the choice on its name row.
 */
import type { ProductRecord } from '@/contract/products';
import { decodeProduct, valueAt, type ProductSettings } from './codec';
import type { AttributeForm, OptionForm, ProductForm } from './product-form';
import { diffFlat, formAsFlat, type ProductChange } from './product-diff';
import { fieldByWire, type Scope } from './registry';
import { flatten, type WireValue } from './wire-fields';

export interface ConflictField {
  key: string;
  scope: Scope;
  /** The field in words, where it is, and its own name, as in a ProductChange. */
  label: string;
  where: string;
  field: string;
  wire: string;
  base: string;
  theirs: string;
  mine: string;
  baseWire: WireValue;
  theirsWire: WireValue;
  mineWire: WireValue;
  theirsChanged: boolean;
  mineChanged: boolean;
  /** Both changed the field, to different values: the person has to choose. */
  conflict: boolean;
}

export interface ProductConflict {
  fields: ConflictField[];
  theirs: ProductRecord;
  form: ProductForm;
}

export type ConflictChoice = 'theirs' | 'mine';

export function mergeConflict(base: ProductRecord, theirs: ProductRecord, form: ProductForm, settings: ProductSettings): ProductConflict {
  const baseFlat = flatten(base);
  const theirChanges = new Map(diffFlat(baseFlat, flatten(theirs), settings).map((change) => [change.key, change]));
  const myChanges = new Map(diffFlat(baseFlat, formAsFlat(base, form, settings).flat, settings).map((change) => [change.key, change]));
  const fields: ConflictField[] = [];
  const seen = new Set<string>();
  for (const change of [...myChanges.values(), ...theirChanges.values()]) {
    if (seen.has(change.key)) continue;
    seen.add(change.key);
    const their = theirChanges.get(change.key);
    const mine = myChanges.get(change.key);
    const side = (own: ProductChange | undefined) =>
      own ? { text: own.after, wire: own.afterWire } : { text: change.before, wire: change.beforeWire };
    const t = side(their);
    const m = side(mine);
    fields.push({
      key: change.key,
      scope: change.scope,
      label: change.label,
      where: change.where,
      field: change.field,
      wire: change.wire,
      base: change.before,
      theirs: t.text,
      mine: m.text,
      baseWire: change.beforeWire,
      theirsWire: t.wire,
      mineWire: m.wire,
      theirsChanged: their !== undefined,
      mineChanged: mine !== undefined,
      conflict: their !== undefined && mine !== undefined && JSON.stringify(their.afterWire) !== JSON.stringify(mine.afterWire),
    });
  }
  return { fields, theirs, form };
}

/** `a:31/o+k2|name` → its item's segments and the wire key. */
function parseKey(key: string): { attribute?: string; option?: string; wire: string } {
  const bar = key.lastIndexOf('|');
  if (bar < 0) return { wire: key };
  const [attribute, option] = key.slice(0, bar).split('/');
  return { attribute, option, wire: key.slice(bar + 1) };
}

/** The item a key's segment names in a form: `a:31` by platform id, `a+k1` (a new one) by its form key. */
function find<T extends { id: string; key: string }>(list: readonly T[], segment: string | undefined): T | undefined {
  if (segment === undefined) return undefined;
  const value = segment.slice(2);
  return segment[1] === ':' ? list.find((item) => item.id === value) : list.find((item) => item.id === '' && item.key === value);
}

function setPath(target: object, path: string, value: unknown): void {
  const parts = path.split('.');
  const last = parts.pop() ?? '';
  const parent = parts.length === 0 ? target : valueAt(target, parts.join('.'));
  if (parent !== null && typeof parent === 'object') (parent as Record<string, unknown>)[last] = structuredClone(value);
}

export function applyChoices(
  conflict: ProductConflict,
  choices: Readonly<Record<string, ConflictChoice>>,
  settings: ProductSettings,
): { base: ProductRecord; form: ProductForm } {
  const form = decodeProduct(conflict.theirs, settings.decimals);
  const mine = conflict.form;
  const removals: (() => void)[] = [];
  for (const field of conflict.fields) {
    const choice = choices[field.key] ?? (field.mineChanged ? 'mine' : 'theirs');
    if (choice === 'theirs') continue;
    const { attribute, option, wire } = parseKey(field.key);
    if (attribute === undefined) {
      const def = fieldByWire(settings.fields, 'product', wire);
      if (def) setPath(form, def.path, valueAt(mine, def.path));
      if (wire === 'slug') form.slugEdited = mine.slugEdited;
      continue;
    }
    const myAttribute = find(mine.attributes, attribute);
    const ourAttribute = find(form.attributes, attribute);
    const myItem: AttributeForm | OptionForm | undefined = option === undefined ? myAttribute : find(myAttribute?.options ?? [], option);
    const ourItem: AttributeForm | OptionForm | undefined = option === undefined ? ourAttribute : find(ourAttribute?.options ?? [], option);
    if (myItem && myItem.id === '') {
      // A new item goes in whole, once, by its name row; a new option of a new attribute comes with it.
      if (wire !== 'name') continue;
      if (option === undefined) form.attributes.push(structuredClone(myItem as AttributeForm));
      else if (ourAttribute && myAttribute?.id !== '') ourAttribute.options.push(structuredClone(myItem as OptionForm));
      continue;
    }
    if (!ourItem) continue;
    if (!myItem) {
      // Mine has no such item: removed from the form (or never had it): leave it out, so the save switches it off.
      removals.push(() => {
        if (option === undefined) form.attributes = form.attributes.filter((item) => item !== ourItem);
        else if (ourAttribute) ourAttribute.options = ourAttribute.options.filter((item) => item !== ourItem);
      });
      continue;
    }
    const def = fieldByWire(settings.fields, option === undefined ? 'attribute' : 'option', wire);
    if (def) setPath(ourItem, def.path, valueAt(myItem, def.path));
  }
  for (const remove of removals) remove();
  return { base: conflict.theirs, form };
}
