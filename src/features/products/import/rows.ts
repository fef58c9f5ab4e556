/**
 * The row layout of an import: one row per option. A product's own columns are filled on its first row
 * and may be left blank on the rows of its further options, or repeated (as Shopify's product CSV repeats
 * the handle); a product without attributes is one row. Within a product, an option's attribute is named
 * by the "Attribute name" column, and a blank one continues the attribute of the row above.
 */
import type { Mapping } from './columns';

/** The text of one cell: the file's, or the fix typed over it. Data rows count from 0, below the header. */
export type CellReader = (row: number, column: number) => string;

export interface CellProblem {
  row: number;
  /** The file's column, or null when the problem belongs to no column of the file (the row as a whole). */
  column: number | null;
  message: string;
}

export interface ProductRows {
  /** The product's rows, in file order; the first carries its columns. */
  rows: number[];
}

export interface AttributeRows {
  /** The rows of its options, in file order; the first carries the attribute's own columns. */
  rows: number[];
}

const isProductColumn = (id: string | null): id is string => id !== null && !id.startsWith('attributes[]');
const isAttributeColumn = (id: string | null) => id !== null && id.startsWith('attributes[].') && !id.startsWith('attributes[].items[]');
const isOptionColumn = (id: string | null) => id !== null && id.startsWith('attributes[].items[].');

const blank = (text: string) => text.trim() === '';

/** The file's columns that feed a scope. */
export function columnsOf(mapping: Mapping, scope: 'product' | 'attribute' | 'option'): number[] {
  const test = scope === 'product' ? isProductColumn : scope === 'attribute' ? isAttributeColumn : isOptionColumn;
  return mapping.flatMap((id, index) => (test(id) ? [index] : []));
}

/**
 * Groups the rows into products. A row starts a new product when one of its product columns is filled
 * and it names another product than the one above (by slug, else by name); a row whose product columns
 * are all blank, or that repeats the product above, is one more option of it. A repeated column that
 * differs from the product's first row is a problem on that cell, never silently dropped.
 */
export function groupRows(rowCount: number, mapping: Mapping, cell: CellReader): { products: ProductRows[]; problems: CellProblem[] } {
  const productColumns = columnsOf(mapping, 'product');
  const slug = mapping.indexOf('slug');
  const name = mapping.indexOf('name');
  const identity = (row: number) => {
    const bySlug = slug >= 0 ? cell(row, slug).trim() : '';
    return bySlug ? `slug:${bySlug}` : name >= 0 ? `name:${cell(row, name).trim()}` : '';
  };
  const products: ProductRows[] = [];
  const problems: CellProblem[] = [];
  let current: { rows: number[]; identity: string } | null = null;
  for (let row = 0; row < rowCount; row += 1) {
    const filled = productColumns.filter((column) => !blank(cell(row, column)));
    if (filled.length === 0) {
      if (current) current.rows.push(row);
      else {
        problems.push({ row, column: null, message: 'No product: this row’s product columns are blank and no product comes before it' });
        // Still listed, so its own cells can be fixed in place.
        current = { rows: [row], identity: '' };
        products.push(current);
      }
      continue;
    }
    const id = identity(row);
    if (current && id !== '' && id === current.identity) {
      const first = current.rows[0] ?? row;
      for (const column of filled) {
        if (cell(row, column) !== cell(first, column)) {
          problems.push({
            row,
            column,
            message: `Differs from the product’s first row (row ${first + 2}): leave it blank or repeat it exactly`,
          });
        }
      }
      current.rows.push(row);
      continue;
    }
    current = { rows: [row], identity: id };
    products.push(current);
  }
  return { products: products.map((p) => ({ rows: p.rows })), problems };
}

/**
 * A product's rows grouped into attributes, in order of first appearance. A row with nothing in the
 * attribute and option columns adds no option (a product without attributes, or a first row that carries
 * only the product). Same attribute name (trimmed) = same attribute, wherever it appears in the product.
 */
export function groupAttributes(rows: readonly number[], mapping: Mapping, cell: CellReader): AttributeRows[] {
  const attributeColumns = columnsOf(mapping, 'attribute');
  const optionColumns = columnsOf(mapping, 'option');
  const nameColumn = mapping.indexOf('attributes[].name');
  const byName = new Map<string, AttributeRows>();
  const attributes: AttributeRows[] = [];
  let previous: AttributeRows | null = null;
  for (const row of rows) {
    const hasContent = [...attributeColumns, ...optionColumns].some((column) => !blank(cell(row, column)));
    if (!hasContent) continue;
    const name = nameColumn >= 0 ? cell(row, nameColumn).trim() : '';
    let attribute: AttributeRows | undefined = name ? byName.get(name) : (previous ?? undefined);
    if (!attribute) {
      attribute = { rows: [] };
      attributes.push(attribute);
      if (name) byName.set(name, attribute);
    }
    attribute.rows.push(row);
    previous = attribute;
  }
  return attributes;
}
