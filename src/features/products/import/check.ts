/**
 * The dry run: every product of the file checked exactly as the editor checks one (the codec's reading
 * of prices and dates in the person's locale, then the contract's 400/422 rules), each problem placed on
 * the cell it came from. Pure, so the worker runs it and the tests call it directly.
 */
import type { WireProductUpdate } from '@/contract/products';
import type { ErrorDetail, WireProduct } from '@/contract/site-api';
import { encodeProduct, type ProductSettings } from '../model/codec';
import { mapServerDetails } from '../model/error-paths';
import { describePath } from '../model/registry';
import { suggestSlug } from '../model/slug';
import { validateProductForm } from '../model/validate';
import { ATTRIBUTE_ID_COLUMN, OPTION_ID_COLUMN, type Mapping } from './columns';
import { REPLACEMENT } from './encoding';
import { groupRows, type CellProblem, type CellReader } from './rows';
import { productFormOf, type ImportSite, type Source } from './to-form';
import { updateFormOf, updateOf, type Catalogue, type CatalogueProduct, type MatchNote, type RowChange } from './updates';

export interface CheckContext {
  settings: ProductSettings;
  site: ImportSite | undefined;
  /** Slugs already created on this site: by the whole team (the activity record) and from this browser. */
  createdSlugs: ReadonlySet<string>;
  /** The site's products by slug, as read at the dry run: a product of the file with one of these slugs updates it. */
  catalogue?: Catalogue;
}

/**
 * What sending a product does: create it (`new`), update a product of the site with `body` (the changes
 * the dry run shows), or nothing, when the file says what the product already is (`unchanged`).
 */
export type ProductAction =
  | { kind: 'new' }
  | { kind: 'update'; id: string; fingerprint: string; changes: RowChange[]; body: WireProductUpdate; matches: MatchNote[] }
  | { kind: 'unchanged'; id: string; matches: MatchNote[] };

export interface CheckedProduct {
  /** The product's first row: its identity in the import (statuses and fixes are kept by row). */
  key: number;
  rows: number[];
  name: string;
  slug: string;
  problems: CellProblem[];
  action: ProductAction;
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
  // A field the file has no column for (a required name, an attribute without options): on the product.
  problems.push(...formProblems(imported.form, imported.sources, first, settings));
  const body: WireProduct = encodeProduct(imported.form, settings).body;
  return { form: imported.form, body, problems };
}

/** The problems of a form as the editor's validation finds them, each on the cell it came from. */
function formProblems(
  form: ReturnType<typeof productFormOf>['form'],
  sources: ReadonlyMap<string, Source>,
  first: number,
  settings: ProductSettings,
): CellProblem[] {
  return validateProductForm(form, settings).map((problem): CellProblem => {
    const source = sources.get(problem.path);
    if (source) return { row: source.row, column: source.column, message: problem.message };
    return {
      row: first,
      column: null,
      message: problem.path ? `${describePath(settings.fields, problem.path)}: ${problem.message}` : problem.message,
    };
  });
}

/** A product of the file that is a product of the site: its update, its problems, and what it changes. */
export function checkUpdate(
  rows: readonly number[],
  mapping: Mapping,
  cell: CellReader,
  settings: ProductSettings,
  product: CatalogueProduct,
): { name: string; problems: CellProblem[]; action: ProductAction } {
  const first = rows[0] ?? 0;
  const imported = updateFormOf(rows, mapping, settings, product, cell);
  const problems = [...cellTextProblems(rows, mapping, cell), ...imported.problems];
  // Checked by the create's rules, as the editor checks an edit: the ids aside (a create has none; they
  // were matched above).
  const withoutIds = {
    ...imported.form,
    attributes: imported.form.attributes.map((a) => ({ ...a, id: '', options: a.options.map((o) => ({ ...o, id: '' })) })),
  };
  problems.push(...formProblems(withoutIds, imported.sources, first, settings));
  const { changes, body } = updateOf(product, imported, settings);
  const action: ProductAction = body
    ? { kind: 'update', id: product.id, fingerprint: product.fingerprint, changes, body, matches: imported.matches }
    : { kind: 'unchanged', id: product.id, matches: imported.matches };
  return { name: imported.form.name.trim(), problems, action };
}

/** The slug a product of the file has: its slug cell, or the one suggested from its name (as the editor does). */
function slugOfRow(row: number, mapping: Mapping, cell: CellReader): string {
  const slugColumn = mapping.indexOf('slug');
  const typed = slugColumn >= 0 ? cell(row, slugColumn).trim() : '';
  if (typed !== '') return typed;
  const nameColumn = mapping.indexOf('name');
  return suggestSlug(nameColumn >= 0 ? cell(row, nameColumn) : '').trim();
}

/** Id cells on a product that is not on the site: an id names an existing attribute or option. */
function idProblems(rows: readonly number[], mapping: Mapping, cell: CellReader, slug: string): CellProblem[] {
  const columns = [mapping.indexOf(ATTRIBUTE_ID_COLUMN), mapping.indexOf(OPTION_ID_COLUMN)].filter((c) => c >= 0);
  return rows.flatMap((row) =>
    columns.flatMap((column) =>
      cell(row, column).trim() === ''
        ? []
        : [
            {
              row,
              column,
              message: `An id names an attribute or option of a product of the site, but the site has no product with slug “${slug}”: leave it blank for a new product`,
            },
          ],
    ),
  );
}

/**
 * Checks the whole file: grouping, every product (an update where its slug is a product of the site, else
 * a create), slugs repeated in the file or already created here.
 */
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
    const key = productRows[0] ?? 0;
    const onSite = context.catalogue?.get(slugOfRow(key, mapping, cell));
    if (onSite) {
      const { name, problems, action } = checkUpdate(productRows, mapping, cell, context.settings, onSite);
      for (const row of productRows) problems.push(...(groupingProblems.get(row) ?? []));
      return { key, rows: productRows, name, slug: onSite.slug, problems, action };
    }
    const { form, problems } = checkProduct(productRows, mapping, cell, context);
    for (const row of productRows) problems.push(...(groupingProblems.get(row) ?? []));
    const slug = form.slug.trim();
    problems.push(...idProblems(productRows, mapping, cell, slug));
    return { key, rows: productRows, name: form.name.trim(), slug, problems, action: { kind: 'new' } };
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
    if (product.action.kind === 'new' && context.createdSlugs.has(product.slug)) {
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
