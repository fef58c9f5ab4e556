/**
 * The CSV files the import writes: the template (every column of the site, one example product in the
 * person's notation) and the report (every row of the file with what became of its product). Written by
 * papaparse's `unparse`, so quoting is the parser's own.
 */
import Papa from 'papaparse';
import type { SiteFields } from '../model/registry';
import { importColumns, templateHeader, type ImportColumn } from './columns';

/** Excel opens a UTF-8 CSV as UTF-8 only with a byte order mark. */
const BOM = '\uFEFF';

/** The separator spreadsheets expect in a locale: ";" where the decimal separator is a comma. */
export function delimiterFor(locale: string): ',' | ';' {
  let decimal = '.';
  try {
    decimal = new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
  } catch {
    decimal = '.';
  }
  return decimal === ',' ? ';' : ',';
}

const amount = (value: number, locale: string, decimals: number) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: false }).format(value);

/** Example values by column; a column not named here is left blank in the example. */
function exampleValue(column: ImportColumn, option: number, locale: string): string {
  const { id } = column;
  const product: Record<string, string> = { name: 'Linen throw', slug: 'linen-throw', enabled: 'true', weighting: '10' };
  const attribute: Record<string, string> = { 'attributes[].name': 'Size', 'attributes[].enabled': 'true' };
  const options = [
    { name: 'Small', stock: '12', add: 0 },
    { name: 'Large', stock: '4', add: 10 },
  ];
  const o = options[option] ?? options[0];
  if (option === 0 && id in product) return product[id] ?? '';
  if (id in attribute) return option === 0 ? (attribute[id] ?? '') : '';
  if (id === 'attributes[].items[].name') return o?.name ?? '';
  if (id === 'attributes[].items[].enabled') return 'true';
  // Found by the field, not by its key on the wire (which ends in a tier, `/1`).
  if (column.scope === 'option' && column.def.path === 'inventory') return o?.stock ?? '';
  const price = /^module_field_14\/product\/price\/[a-z]{3}\/1$/.exec(id);
  if (price && option === 0) return amount(49.95, locale, 2);
  const added = /^attributes\[\]\.items\[\]\.module_field_14\/product_attribute_option\/price\/[a-z]{3}\/1$/.exec(id);
  if (added) return amount(o?.add ?? 0, locale, 2);
  return '';
}

/** The template's table: its columns, and one product with one attribute of two options (two rows). */
export function templateTable(fields: SiteFields, locale: string): { columns: readonly ImportColumn[]; rows: string[][] } {
  const columns = importColumns(fields);
  return { columns, rows: [0, 1].map((option) => columns.map((column) => exampleValue(column, option, locale))) };
}

/** The template as CSV: "Label [id]" headers, then the example product. */
export function templateCsv(fields: SiteFields, locale: string): string {
  const { columns, rows } = templateTable(fields, locale);
  return BOM + Papa.unparse({ fields: columns.map(templateHeader), data: rows }, { delimiter: delimiterFor(locale), newline: '\r\n' });
}

export interface ReportLine {
  status: string;
  message: string;
  answer: string;
}

/**
 * The report: the file's own columns, each row with its product's status, what the platform said or
 * why it was not sent, and (on a created product's first row) the platform's answer as JSON.
 */
export function reportCsv(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  lines: ReadonlyMap<number, ReportLine>,
  delimiter: string,
): string {
  const data = rows.map((row, index) => {
    const line = lines.get(index);
    return [line?.status ?? '', line?.message ?? '', line?.answer ?? '', ...row];
  });
  return (
    BOM + Papa.unparse({ fields: ['Import status', 'Import message', 'Platform answer', ...headers], data }, { delimiter, newline: '\r\n' })
  );
}
