/**
 * The Excel workbooks the import writes: the template (the header row frozen, each column's help as a note
 * on its header, choice and yes/no columns as drop-down lists) and the report. Written with exceljs, loaded
 * only when a person asks for one of them; the free build of SheetJS, which reads workbooks (workbook.ts),
 * writes neither drop-down lists nor frozen rows.
 */
import type { Worksheet } from 'exceljs';
import type { FieldDef, SiteFields } from '../model/registry';
import { templateHeader, type ImportColumn } from './columns';
import { templateTable, type ReportLine } from './csv-files';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a person needs to know to fill a column: its help, and what it takes. */
export function columnHelp(column: ImportColumn): string {
  const { def } = column;
  const takes: Record<FieldDef['kind'], string> = {
    text: 'Text.',
    multiline: 'Text; line breaks are kept.',
    integer: 'A whole number.',
    datetime: 'A date (a date cell, or YYYY-MM-DD), optionally with a time; read in your time zone.',
    boolean: 'true or false.',
    references: 'Ids separated by commas.',
    money: `An amount in ${def.kind === 'money' ? def.currency.toUpperCase() : ''}, e.g. 49.95.`,
    choice: def.kind === 'choice' ? `One of: ${def.options.map((o) => o.label).join(', ')}.` : '',
  };
  const scope =
    column.scope === 'product'
      ? 'On a product’s first row.'
      : column.scope === 'attribute'
        ? 'On an attribute’s first option row.'
        : 'On every option row.';
  return [column.label, def.hint ? `${def.hint.charAt(0).toUpperCase()}${def.hint.slice(1)}.` : '', takes[def.kind], scope]
    .filter(Boolean)
    .join('\n');
}

async function newWorkbook() {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  book.creator = 'site-admin';
  return book;
}

const toBlob = async (book: { xlsx: { writeBuffer(): Promise<ArrayBuffer> } }) =>
  new Blob([await book.xlsx.writeBuffer()], { type: XLSX_TYPE });

function headerRow(sheet: Worksheet, headers: readonly string[]) {
  sheet.addRow([...headers]).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  sheet.columns.forEach((column, i) => (column.width = Math.min(40, Math.max(10, (headers[i]?.length ?? 10) * 0.9))));
}

/** The template as a workbook: numbers as numbers (Excel shows them in the person's own notation). */
export async function templateWorkbook(fields: SiteFields): Promise<Blob> {
  const book = await newWorkbook();
  const sheet = book.addWorksheet('Products');
  const lists = book.addWorksheet('Lists', { state: 'hidden' });
  // Written in a notation with a decimal point, then turned into numbers where the column is numeric.
  const { columns, rows } = templateTable(fields, 'en-US');
  headerRow(sheet, columns.map(templateHeader));
  for (const row of rows) {
    sheet.addRow(
      row.map((text, i) => ((columns[i]?.def.kind === 'money' || columns[i]?.def.kind === 'integer') && text !== '' ? Number(text) : text)),
    );
  }
  let listColumn = 0;
  columns.forEach((column, i) => {
    const header = sheet.getCell(1, i + 1);
    header.note = columnHelp(column);
    const { def } = column;
    if (def.kind === 'money') sheet.getColumn(i + 1).numFmt = '0.00';
    const choices = def.kind === 'choice' ? def.options.map((o) => o.label) : def.kind === 'boolean' ? ['true', 'false'] : null;
    if (!choices) return;
    // The list lives on a hidden sheet: a list written into the rule itself may not hold commas.
    listColumn += 1;
    const { letter } = lists.getColumn(listColumn);
    choices.forEach((choice, r) => (lists.getCell(r + 1, listColumn).value = choice));
    const rule = {
      type: 'list' as const,
      allowBlank: true,
      formulae: [`Lists!$${letter}$1:$${letter}$${choices.length}`],
      showErrorMessage: true,
      errorTitle: column.label,
      error: `Choose one of: ${choices.join(', ')}`,
    };
    for (let r = 2; r <= 1000; r += 1) sheet.getCell(r, i + 1).dataValidation = rule;
  });
  return toBlob(book);
}

/** The report as a workbook: each row's status, message and answer before the file's own columns. */
export async function reportWorkbook(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  lines: ReadonlyMap<number, ReportLine>,
): Promise<Blob> {
  const book = await newWorkbook();
  const sheet = book.addWorksheet('Report');
  headerRow(sheet, ['Import status', 'Import message', 'Platform answer', ...headers]);
  rows.forEach((row, index) => {
    const line = lines.get(index);
    // Every cell as text: the file's cells exactly as they were read, leading zeros and all.
    sheet.addRow([line?.status ?? '', line?.message ?? '', line?.answer ?? '', ...row]);
  });
  return toBlob(book);
}
