/**
 * A product's rows → the editor's ProductForm, through the registry: each mapped cell lands at its
 * field's form path as the text typed, so the codec reads prices and dates exactly as the editor does,
 * and the same check marks the same problems. Also says which cell each form path came from, so a
 * problem lands on the cell a person typed.
 *
 * Only what a form field cannot hold as text is read here: yes/no cells, lists of ids (or names, where
 * the site's profile names its categories) and the choices of a profile's inventory settings.
 */
import { emptyAttribute, emptyOption, type ProductForm } from '../model/product-form';
import type { FieldDef, SiteFields } from '../model/registry';
import { newProductFor } from '../model/site-fields';
import { suggestSlug } from '../model/slug';
import type { SiteInfo } from '@/contract/site-info';
import { importColumns, type Mapping } from './columns';
import { columnsOf, groupAttributes, type CellProblem, type CellReader } from './rows';

export interface Source {
  row: number;
  column: number;
}

export interface ImportedForm {
  form: ProductForm;
  /** Form path → the cell it was read from. */
  sources: Map<string, Source>;
  /** Cells that could not be read into a field (a yes/no that is neither). */
  problems: CellProblem[];
}

const YES = new Set(['true', 'yes', 'y', '1', 'x', 'on', 'enabled', 'ja', 'wahr', 'oui', 'si', 'sí']);
const NO = new Set(['false', 'no', 'n', '0', 'off', 'disabled', 'nein', 'falsch', 'non']);
export const BOOLEAN_REASON = 'Not yes or no: use true or false (yes/no, 1/0 also work)';

/** Lists of ids are separated by commas, semicolons, bars or line breaks. */
const splitList = (text: string) => text.split(/[,;|\n]/u).flatMap((part) => (part.trim() === '' ? [] : [part.trim()]));

function setPath(target: object, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts.at(-1) ?? ''] = value;
}

export interface Placed {
  def: FieldDef;
  column: number;
}

/** The file's columns of a scope with their fields. */
export function placed(mapping: Mapping, fields: SiteFields, scope: 'product' | 'attribute' | 'option'): Placed[] {
  const byId = new Map(importColumns(fields).map((c) => [c.id, c]));
  return columnsOf(mapping, scope).flatMap((column) => {
    const found = byId.get(mapping[column] ?? '');
    return found && found.scope === scope ? [{ def: found.def, column }] : [];
  });
}

/**
 * Reads the cells of one object (the product, an attribute or an option) into `target`; blank cells keep
 * the target's value (the site's defaults, the editor's empty values).
 */
export function readInto(
  target: object,
  prefix: string,
  columns: readonly Placed[],
  row: number,
  cell: CellReader,
  out: ImportedForm,
): void {
  for (const { def, column } of columns) {
    const text = cell(row, column);
    const path = prefix + def.path;
    out.sources.set(path, { row, column });
    if (text.trim() === '') continue;
    switch (def.kind) {
      case 'boolean': {
        const word = text.trim().toLowerCase();
        if (YES.has(word)) setPath(target, def.path, true);
        else if (NO.has(word)) setPath(target, def.path, false);
        else out.problems.push({ row, column, message: BOOLEAN_REASON });
        break;
      }
      case 'references': {
        // By id, or by the name the site's profile gives it ("Bedding › Throws", or just "Throws" when unique).
        const named = def.named ?? [];
        const ids = splitList(text).map((item) => {
          const lower = item.toLowerCase();
          const exact = named.find((n) => n.value === item || n.label.toLowerCase() === lower);
          if (exact) return exact.value;
          const last = named.filter((n) => n.label.split(' › ').at(-1)?.toLowerCase() === lower);
          return last.length === 1 && last[0] ? last[0].value : item;
        });
        setPath(target, def.path, ids);
        break;
      }
      case 'choice': {
        const lower = text.trim().toLowerCase();
        const choice = def.options.find((o) => o.value.toLowerCase() === lower || o.label.toLowerCase() === lower);
        setPath(target, def.path, choice ? choice.value : text);
        break;
      }
      default:
        setPath(target, def.path, text);
    }
  }
}

export type ImportSite = Pick<SiteInfo, 'defaults'>;

/** The product of `rows` as the editor's form, with the site's defaults where the file leaves a cell blank. */
export function productFormOf(
  rows: readonly number[],
  mapping: Mapping,
  fields: SiteFields,
  site: ImportSite | undefined,
  cell: CellReader,
): ImportedForm {
  const form = newProductFor(site);
  const out: ImportedForm = { form, sources: new Map(), problems: [] };
  const first = rows[0];
  if (first === undefined) return out;
  readInto(form, '', placed(mapping, fields, 'product'), first, cell, out);
  // As in the editor: a blank slug is suggested from the name.
  if (form.slug.trim() === '') form.slug = suggestSlug(form.name);
  else form.slugEdited = true;
  // A new product's attributes and options have no ids: an id cell names an item of a product of the site
  // (updates.ts reads it; check.ts stops one on a product that is not on the site).
  const attributeColumns = placed(mapping, fields, 'attribute').filter(({ def }) => def.wire !== 'id');
  const optionColumns = placed(mapping, fields, 'option').filter(({ def }) => def.wire !== 'id');
  form.attributes = groupAttributes(rows, mapping, cell).map((group, a) => {
    const attribute = { ...emptyAttribute(), options: [] as ReturnType<typeof emptyOption>[] };
    // The attribute's columns: on its first row; a later row may fill one left blank there.
    for (const row of [...group.rows].reverse()) readInto(attribute, `attributes.${a}.`, attributeColumns, row, cell, out);
    attribute.options = group.rows.map((row, o) => {
      const option = emptyOption();
      readInto(option, `attributes.${a}.options.${o}.`, optionColumns, row, cell, out);
      return option;
    });
    return attribute;
  });
  return out;
}
