/**
 * The dry run: every product of the file checked exactly as the editor checks one (the codec's reading
 * of prices and dates in the person's locale, then the contract's 400/422 rules), each problem placed on
 * the cell it came from. Pure, so the worker runs it and the tests call it directly.
 */
import type { ErrorDetail, WireProduct } from '@/contract/site-api';
import { encodeProduct, type ProductSettings } from '../model/codec';
import { mapServerDetails } from '../model/error-paths';
import { describePath } from '../model/registry';
import { validateProductForm } from '../model/validate';
import type { Mapping } from './columns';
import { REPLACEMENT } from './encoding';
import { groupRows, type CellProblem, type CellReader } from './rows';
import { productFormOf, type ImportSite } from './to-form';

export interface CheckContext {
  settings: ProductSettings;
  site: ImportSite | undefined;
  /** Slugs already created on this site: by the whole team (the activity record) and from this browser. */
  createdSlugs: ReadonlySet<string>;
}

export interface CheckedProduct {
  /** The product's first row: its identity in the import (statuses and fixes are kept by row). */
  key: number;
  rows: number[];
  name: string;
  slug: string;
  problems: CellProblem[];
}

export interface CheckResult {
  products: CheckedProduct[];
  ready: number;
  withProblems: number;
}

/** A cell reader over the file's rows with the fixes typed over them (`"row:column"` → text). */
export function readerOf(rows: readonly (readonly string[])[], fixes: Readonly<Record<string, string>>): CellReader {
  return (row, column) => fixes[`${row}:${column}`] ?? rows[row]?.[column] ?? '';
}

/** Excel's error values, as a workbook's cell shows them: a formula that failed, not a value. */
const EXCEL_ERRORS = new Set(['#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A', '#GETTING_DATA', '#SPILL!', '#CALC!']);

export const UNREADABLE_REASON =
  'Holds “\uFFFD”, a character the file’s encoding could not represent: the file was read in another encoding than it was saved in, or it holds bytes no encoding can read. Type the text here, or choose the file’s encoding above.';
export const EXCEL_ERROR_REASON = 'Excel shows an error here, not a value: correct the formula in the workbook, or type the value here';

/** Text the person did not write: never sent, whatever column it is in. */
function cellTextProblems(rows: readonly number[], mapping: Mapping, cell: CellReader): CellProblem[] {
  const problems: CellProblem[] = [];
  for (const row of rows) {
    mapping.forEach((id, column) => {
      if (id === null) return;
      const text = cell(row, column);
      if (text.includes(REPLACEMENT)) problems.push({ row, column, message: UNREADABLE_REASON });
      else if (text.startsWith('#') && EXCEL_ERRORS.has(text.trim())) problems.push({ row, column, message: EXCEL_ERROR_REASON });
    });
  }
  return problems;
}

/** One product: its wire body and its problems on their cells, as the editor would find them. */
export function checkProduct(
  rows: readonly number[],
  mapping: Mapping,
  cell: CellReader,
  context: Pick<CheckContext, 'settings' | 'site'>,
) {
  const { settings, site } = context;
  const imported = productFormOf(rows, mapping, settings.fields, site, cell);
  const first = rows[0] ?? 0;
  const problems: CellProblem[] = [...cellTextProblems(rows, mapping, cell), ...imported.problems];
  for (const problem of validateProductForm(imported.form, settings)) {
    const source = imported.sources.get(problem.path);
    if (source) problems.push({ row: source.row, column: source.column, message: problem.message });
    // A field the file has no column for (a required name, an attribute without options): on the product.
    else
      problems.push({
        row: first,
        column: null,
        message: problem.path ? `${describePath(settings.fields, problem.path)}: ${problem.message}` : problem.message,
      });
  }
  const body: WireProduct = encodeProduct(imported.form, settings).body;
  return { form: imported.form, body, problems };
}

/** Checks the whole file: grouping, every product, slugs repeated in the file or already created here. */
export function checkImport(
  rows: readonly (readonly string[])[],
  mapping: Mapping,
  fixes: Readonly<Record<string, string>>,
  context: CheckContext,
): CheckResult {
  const cell = readerOf(rows, fixes);
  const grouped = groupRows(rows.length, mapping, cell);
  const groupingProblems = new Map<number, CellProblem[]>();
  for (const problem of grouped.problems) {
    groupingProblems.set(problem.row, [...(groupingProblems.get(problem.row) ?? []), problem]);
  }
  const slugColumn = mapping.indexOf('slug');
  const nameColumn = mapping.indexOf('name');
  const products = grouped.products.map(({ rows: productRows }): CheckedProduct => {
    const { form, problems } = checkProduct(productRows, mapping, cell, context);
    for (const row of productRows) problems.push(...(groupingProblems.get(row) ?? []));
    return { key: productRows[0] ?? 0, rows: productRows, name: form.name.trim(), slug: form.slug.trim(), problems };
  });
  const firstRowOfSlug = new Map<string, number>();
  for (const product of products) {
    if (product.slug === '') continue;
    // The slug cell, or the name's when the slug was suggested from it.
    const column = slugColumn >= 0 && cell(product.key, slugColumn).trim() !== '' ? slugColumn : nameColumn >= 0 ? nameColumn : null;
    const earlier = firstRowOfSlug.get(product.slug);
    if (earlier !== undefined) {
      product.problems.push({
        row: product.key,
        column,
        message: `Slug “${product.slug}” is also on row ${earlier + 2}: each product needs its own`,
      });
    } else firstRowOfSlug.set(product.slug, product.key);
    if (context.createdSlugs.has(product.slug)) {
      product.problems.push({ row: product.key, column, message: `Slug “${product.slug}” was already created on this site` });
    }
  }
  const withProblems = products.filter((p) => p.problems.length > 0).length;
  return { products, ready: products.length - withProblems, withProblems };
}

/** The platform's 400/422 details on the cells they name (as the editor puts them on its fields); the rest on the product. */
export function placeDetails(
  rows: readonly number[],
  mapping: Mapping,
  cell: CellReader,
  settings: ProductSettings,
  details: readonly ErrorDetail[],
): CellProblem[] {
  const { sources } = productFormOf(rows, mapping, settings.fields, undefined, cell);
  const first = rows[0] ?? 0;
  const mapped = mapServerDetails(settings.fields, details);
  return [
    ...mapped.fieldErrors.map((problem): CellProblem => {
      const source = sources.get(problem.path);
      return source
        ? { row: source.row, column: source.column, message: problem.message }
        : { row: first, column: null, message: `${describePath(settings.fields, problem.path)}: ${problem.message}` };
    }),
    ...mapped.unmapped.map((detail): CellProblem => ({
      row: first,
      column: null,
      message: detail.field ? `${detail.field}: ${detail.message}` : detail.message,
    })),
  ];
}
