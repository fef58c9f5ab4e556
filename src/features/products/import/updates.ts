/**
 * Rows that update a product of the site. A product of the file whose slug is a product of the site's
 * catalogue (read at the dry run) is an update of that product: the editor's form is opened from the
 * product as the platform has it (openForEdit, the editor's own reading), and the file's cells are typed
 * over it. A blank cell keeps the product's value, so a file of only a slug and a price column changes
 * only prices; an attribute or option the file does not name is left as it is (an import never disables
 * what it does not mention).
 *
 * Attributes and options are found by the platform's id where the file keeps it (the `Attribute id` and
 * `Option id` columns), else by name (an option within its attribute), else they are new; the dry run says
 * which. What the update sends is diffProduct's body against the product as read, so a row that changes
 * nothing sends nothing ("unchanged").
 */
import type { ProductRecord, UnknownField, WireProductUpdate } from '@/contract/products';
import type { ProductSettings } from '../model/codec';
import { openForEdit } from '../model/open-for-edit';
import { diffProduct, type ProductChange } from '../model/product-diff';
import { emptyAttribute, emptyOption, type AttributeForm, type OptionForm } from '../model/product-form';
import { ATTRIBUTE_ID_COLUMN, OPTION_ID_COLUMN, type Mapping } from './columns';
import { groupAttributes, type CellProblem, type CellReader } from './rows';
import { placed, readInto, type ImportedForm } from './to-form';

/** A product of the site as the dry run read it: what a row's update is computed against and sent with. */
export interface CatalogueProduct {
  id: string;
  slug: string;
  record: ProductRecord;
  /** Fields the editor does not know: such a product cannot be updated from a file (as it opens read-only). */
  unknown: UnknownField[];
  /** What the update carries in If-Match: the product as read at the dry run. */
  fingerprint: string;
}

/** The site's products by slug. */
export type Catalogue = ReadonlyMap<string, CatalogueProduct>;

/** How an attribute or option of the file was found on the product. */
export interface MatchNote {
  /** `Attribute “Size”` or `Attribute “Size” › Option “S”`. */
  item: string;
  how: 'by id' | 'matched by name' | 'new';
}

/** One change of a row's update, as the dry run shows it. */
export type RowChange = Pick<ProductChange, 'kind' | 'label' | 'before' | 'after'>;

export interface UpdateForm extends ImportedForm {
  matches: MatchNote[];
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Finds the item a row names: by the id cell when filled (a problem on that cell when the product has no
 * such item), else by name; null when it is new.
 */
function find<T extends { id: string; name: string }>(
  items: readonly T[],
  idText: string,
  name: string,
): { found: T; how: 'by id' | 'matched by name' } | { found: null; missingId: boolean } {
  const id = idText.trim();
  if (id !== '') {
    const byId = items.find((item) => item.id === id);
    return byId ? { found: byId, how: 'by id' } : { found: null, missingId: true };
  }
  const exact = items.filter((item) => item.name.trim() === name.trim());
  const loose = exact.length > 0 ? exact : items.filter((item) => sameName(item.name, name));
  return name.trim() !== '' && loose.length === 1 && loose[0]
    ? { found: loose[0], how: 'matched by name' }
    : { found: null, missingId: false };
}

/** The product of `rows` as the editor's form, opened from `product` with the file's cells typed over it. */
export function updateFormOf(
  rows: readonly number[],
  mapping: Mapping,
  settings: ProductSettings,
  product: CatalogueProduct,
  cell: CellReader,
): UpdateForm {
  const { fields } = settings;
  const opened = openForEdit(product.record, product.unknown, settings);
  const form = opened.form;
  const out: UpdateForm = { form, sources: new Map(), problems: [], matches: [] };
  const first = rows[0];
  if (first === undefined) return out;
  for (const reason of opened.readOnly) {
    out.problems.push({
      row: first,
      column: null,
      message: `This product of the site cannot be updated from a file, as the editor opens it read-only: ${reason.field}: ${reason.why}`,
    });
  }
  readInto(form, '', placed(mapping, fields, 'product'), first, cell, out);
  // The product keeps its slug: it is how the row found it (a blank slug cell was suggested from the name).
  form.slug = product.slug;
  form.slugEdited = true;

  const attributeColumns = placed(mapping, fields, 'attribute');
  const optionColumns = placed(mapping, fields, 'option');
  const attributeId = mapping.indexOf(ATTRIBUTE_ID_COLUMN);
  const attributeName = mapping.indexOf('attributes[].name');
  const optionId = mapping.indexOf(OPTION_ID_COLUMN);
  const optionName = mapping.indexOf('attributes[].items[].name');
  const text = (row: number, column: number) => (column >= 0 ? cell(row, column) : '');
  const missing = (row: number, column: number, what: string, id: string): CellProblem => ({
    row,
    column,
    message: `This product has no ${what} with id “${id.trim()}”: correct the id, or leave it blank to match by name`,
  });

  for (const group of groupAttributes(rows, mapping, cell)) {
    const head = group.rows[0] ?? first;
    // The attribute's name and id: on its first row, or a later one that fills them.
    const idRow = group.rows.find((row) => text(row, attributeId).trim() !== '') ?? head;
    const nameRow = group.rows.find((row) => text(row, attributeName).trim() !== '') ?? head;
    const name = text(nameRow, attributeName);
    const located = find(form.attributes, text(idRow, attributeId), name);
    let attribute: AttributeForm;
    if (located.found) {
      attribute = located.found;
      out.matches.push({ item: `Attribute “${attribute.name}”`, how: located.how });
    } else {
      if (located.missingId) out.problems.push(missing(idRow, attributeId, 'attribute', text(idRow, attributeId)));
      attribute = { ...emptyAttribute(), options: [] };
      form.attributes.push(attribute);
      out.matches.push({ item: `Attribute “${name.trim()}”`, how: 'new' });
    }
    const a = form.attributes.indexOf(attribute);
    for (const row of [...group.rows].reverse()) readInto(attribute, `attributes.${a}.`, attributeColumns, row, cell, out);
    for (const row of group.rows) {
      const optionText = text(row, optionName);
      const found = find(attribute.options, text(row, optionId), optionText);
      let option: OptionForm;
      if (found.found) {
        option = found.found;
        out.matches.push({ item: `Attribute “${attribute.name}” › Option “${option.name}”`, how: found.how });
      } else {
        if (found.missingId) out.problems.push(missing(row, optionId, 'option in this attribute', text(row, optionId)));
        option = emptyOption();
        attribute.options.push(option);
        out.matches.push({ item: `Attribute “${attribute.name}” › Option “${optionText.trim()}”`, how: 'new' });
      }
      readInto(option, `attributes.${a}.options.${attribute.options.indexOf(option)}.`, optionColumns, row, cell, out);
    }
  }
  return out;
}

/** What an update row sends: its changes and body (null: nothing changes, the row is skipped). */
export function updateOf(
  product: CatalogueProduct,
  imported: UpdateForm,
  settings: ProductSettings,
): { changes: RowChange[]; body: WireProductUpdate | null } {
  const diff = diffProduct(product.record, imported.form, settings);
  return {
    changes: diff.changes.map(({ kind, label, before, after }) => ({ kind, label, before, after })),
    body: diff.body,
  };
}
