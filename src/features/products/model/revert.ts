/**
 * Undoing an update from the activity record, on wire values alone.
 *
 *   revertBody({ before, body }, current, settings) →
 *     { ok: true, body, changes } | { ok: false, changedSince }
 *
 * - `before`: the product as read just before the update; `body`: the update as sent; `current`: the
 *   product as read now.
 * - The fields the update wrote are those of its body whose value differed from `before` (a body always
 *   carries name and enabled, and each item's name, changed or not: those it left as they were are not
 *   its doing). An attribute or option it created (sent without id) is found in `current` by its name
 *   among the items `before` did not have.
 * - When `current` still holds every value the update wrote: `ok`, with the body that puts back the
 *   `before` value of exactly those fields (a cleared one as "" or an empty list, a created item switched
 *   off with enabled "false": the platform cannot delete), and `changes` as the diff shows them (from
 *   current to reverted). `body` is null when the update changed nothing.
 * - Otherwise `changedSince`: each field that changed since, with the value the update wrote and the
 *   value it has now; nothing is to be sent.
 */
import type { ProductRecord, WireProductUpdate } from '@/contract/products';
import type { ProductSettings } from './codec';
import { bodyOf, diffFlat, type ProductChange } from './product-diff';
import { BASE_FIELDS, fieldByWire, type FieldDef, type Scope, type SiteFields } from './registry';
import { displayValue, fieldName, flatten, itemName, sameValue, type FlatItem, type FlatProduct, type WireValue } from './wire-fields';

export interface ChangedSince {
  /** The field in words: `Attribute “Size” › Option “S” › Option name`. */
  field: string;
  wire: string;
  /** The value the update wrote, and the value now, as the person reads them and as on the wire. */
  wrote: string;
  now: string;
  wroteWire: WireValue;
  nowWire: WireValue;
}

export type RevertPlan =
  { ok: true; body: WireProductUpdate | null; changes: ProductChange[] } | { ok: false; changedSince: ChangedSince[] };

/** Every field of the registry, with the site's labels and kinds where the site has the field. */
function allFields(site: SiteFields): SiteFields {
  const scoped = (scope: Scope) => BASE_FIELDS[scope].map((def) => fieldByWire(site, scope, def.wire) ?? def);
  return { product: scoped('product'), attribute: scoped('attribute'), option: scoped('option') };
}

const sameName = (a: unknown, b: unknown) =>
  typeof a === 'string' && typeof b === 'string' && a.trim().toLowerCase() === b.trim().toLowerCase();

export function revertBody(
  update: { before: ProductRecord; body: WireProductUpdate },
  current: ProductRecord,
  settings: ProductSettings,
): RevertPlan {
  const fields = allFields(settings.fields);
  const all: ProductSettings = { ...settings, fields };
  const before = flatten(update.before);
  const now = flatten(current);
  const target: FlatProduct = {
    product: { ...now.product },
    items: new Map([...now.items].map(([key, item]) => [key, { ...item, wire: { ...item.wire } }])),
  };
  const changedSince: ChangedSince[] = [];
  const defOf = (scope: Scope, wire: string): FieldDef | undefined => fields[scope].find((def) => def.wire === wire);

  /** One field the update sent: if it changed it, check it still holds, and put back the value before. */
  const field = (
    scope: Scope,
    wire: string,
    wrote: unknown,
    was: Record<string, unknown>,
    held: Record<string, unknown>,
    out: Record<string, unknown>,
    where: string,
  ) => {
    const def = defOf(scope, wire);
    if (!def || sameValue(def, was[wire], wrote)) return;
    if (!sameValue(def, held[wire], wrote)) {
      changedSince.push(since(def, wrote, held[wire], where));
      return;
    }
    out[wire] = was[wire];
  };
  const since = (def: FieldDef, wrote: unknown, held: unknown, where: string): ChangedSince => {
    const name = fieldName(def, settings.fields);
    return {
      field: where === '' ? name : `${where} › ${name}`,
      wire: def.wire,
      wrote: displayValue(def, wrote, settings),
      now: displayValue(def, held, settings),
      wroteWire: wrote as WireValue,
      nowWire: held as WireValue,
    };
  };
  /** A created item: it must still be there as the update wrote it; it is switched off. */
  const created = (
    scope: 'attribute' | 'option',
    sent: Record<string, unknown>,
    candidates: FlatItem[],
    used: Set<string>,
    where: string,
  ) => {
    const found = candidates.find((item) => !used.has(item.key) && sameName(item.wire.name, sent.name));
    const noun = scope === 'attribute' ? 'Attribute' : 'Option';
    const label = `${where === '' ? '' : `${where} › `}${noun} “${String(sent.name ?? '')}”`;
    if (!found) {
      changedSince.push({
        field: label,
        wire: 'name',
        wrote: String(sent.name ?? ''),
        now: 'no longer there under this name',
        wroteWire: sent.name as WireValue,
        nowWire: undefined,
      });
      return;
    }
    used.add(found.key);
    for (const [wire, wrote] of Object.entries(sent)) {
      const def = defOf(scope, wire);
      if (def && !sameValue(def, found.wire[wire], wrote)) changedSince.push(since(def, wrote, found.wire[wire], itemName(now, found.key)));
    }
    const out = target.items.get(found.key);
    if (out) out.wire.enabled = 'false';
  };

  const { attributes, ...product } = update.body;
  for (const [wire, wrote] of Object.entries(product)) field('product', wire, wrote, before.product, now.product, target.product, '');

  const isNew = (item: FlatItem) => !before.items.has(item.key);
  const usedAttributes = new Set<string>();
  for (const attribute of attributes ?? []) {
    const { id, items, ...sent } = attribute;
    if (!id) {
      created(
        'attribute',
        sent,
        [...now.items.values()].filter((item) => item.scope === 'attribute' && isNew(item)),
        usedAttributes,
        '',
      );
      continue;
    }
    const key = `a:${id}`;
    const was = before.items.get(key)?.wire ?? {};
    const held = now.items.get(key);
    const where = itemName(now, key) || `Attribute ${id}`;
    if (!held) {
      changedSince.push({ field: where, wire: 'id', wrote: id, now: 'no longer there', wroteWire: id, nowWire: undefined });
      continue;
    }
    const out = target.items.get(key)?.wire ?? {};
    for (const [wire, wrote] of Object.entries(sent)) field('attribute', wire, wrote, was, held.wire, out, where);
    const usedOptions = new Set<string>();
    for (const option of items ?? []) {
      const { id: optionId, ...optionSent } = option;
      if (!optionId) {
        const candidates = [...now.items.values()].filter((item) => item.parent === key && isNew(item));
        created('option', optionSent, candidates, usedOptions, where);
        continue;
      }
      const optionKey = `${key}/o:${optionId}`;
      const optionHeld = now.items.get(optionKey);
      const optionWhere = itemName(now, optionKey) || `${where} › Option ${optionId}`;
      if (!optionHeld) {
        changedSince.push({
          field: optionWhere,
          wire: 'id',
          wrote: optionId,
          now: 'no longer there',
          wroteWire: optionId,
          nowWire: undefined,
        });
        continue;
      }
      const optionOut = target.items.get(optionKey)?.wire ?? {};
      const optionWas = before.items.get(optionKey)?.wire ?? {};
      for (const [wire, wrote] of Object.entries(optionSent))
        field('option', wire, wrote, optionWas, optionHeld.wire, optionOut, optionWhere);
    }
  }
  if (changedSince.length > 0) return { ok: false, changedSince };
  const changes = diffFlat(now, target, all);
  return { ok: true, body: bodyOf(changes, target, all), changes };
}
