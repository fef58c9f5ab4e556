/**
 * The file of an export of a form's cases, apart from HTTP and the platform: which columns (case id,
 * received, the form's fields, status, assignee), each case's row, the file's name, and the writing of
 * rows as CSV (papaparse's `unparse`) and as an Excel workbook (exceljs's streaming writer, which writes
 * each row as it is committed rather than holding the workbook).
 */
import type { Writable } from 'node:stream';
import Papa from 'papaparse';
import { FORMULA_START } from '../file-answers';
import { caseIdOf, receivedAtMs } from '../../src/contract/case-list-items';
import { CASE_STATUS_LABELS, CASE_STATUSES, type ExportFormat } from '../../src/contract/case-work';

/** A cell as written: text, a number, or nothing. */
export type Cell = string | number | boolean | null;

/** The record's own keys, which are not the form's fields when a record has no `properties`. */
const RECORD_KEYS = new Set(['id', 'name', 'form_name', 'created_at', 'updated_at', 'properties']);

/** The case's fields: its `properties` (the documented record), else its own keys but the record's. */
function fieldsOf(record: Record<string, unknown>): Record<string, unknown> {
  const { properties } = record;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) return properties as Record<string, unknown>;
  return Object.fromEntries(Object.entries(record).filter(([key]) => !RECORD_KEYS.has(key)));
}

/** A field's value in a cell: text and numbers as they are, a list one item a line, anything else as JSON. */
export function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join('\n');
  return JSON.stringify(value);
}

export interface ExportRow {
  id: string;
  received: string;
  /** By the column's index in the table's field keys; a shorter list leaves the rest empty. */
  fields: Cell[];
  status: string;
  assignee: string;
}

/**
 * The rows of an export as they are read, page after page, and its columns: the fields the site profile
 * names for the form first (in the profile's order, under its labels), then every other field key in the
 * order first met.
 */
export class ExportTable {
  readonly rows: ExportRow[] = [];
  private readonly keys: string[] = [];
  private readonly indexOf = new Map<string, number>();

  constructor(private readonly labels: Readonly<Record<string, string>> = {}) {
    for (const key of Object.keys(labels)) this.column(key);
  }

  private column(key: string): number {
    let index = this.indexOf.get(key);
    if (index === undefined) {
      index = this.keys.length;
      this.keys.push(key);
      this.indexOf.set(key, index);
    }
    return index;
  }

  add(record: Record<string, unknown>, work: { status: string; assignee: string | null }): void {
    const fields: Cell[] = [];
    for (const [key, value] of Object.entries(fieldsOf(record))) fields[this.column(key)] = cellOf(value);
    const received = receivedAtMs(record);
    const status = CASE_STATUSES.find((known) => known === work.status);
    this.rows.push({
      id: caseIdOf(record) ?? '',
      received: received === null ? '' : new Date(received).toISOString(),
      fields,
      status: status ? CASE_STATUS_LABELS[status] : work.status,
      assignee: work.assignee ?? '',
    });
  }

  /** The header row: the profile's label of a field where it has one, else the field's key. */
  header(): string[] {
    return ['Case id', 'Received (UTC)', ...this.keys.map((key) => this.labels[key] ?? key), 'Status', 'Assignee'];
  }

  cells(row: ExportRow): Cell[] {
    const fields: Cell[] = [];
    for (let i = 0; i < this.keys.length; i += 1) fields.push(row.fields[i] ?? null);
    return [row.id, row.received, ...fields, row.status, row.assignee];
  }
}

/** Rows as CSV text (CRLF line ends, formula-like cells made inert), ending with a line end. */
export function csvChunk(rows: readonly Cell[][]): string {
  if (rows.length === 0) return '';
  return `${Papa.unparse(rows as Cell[][], { escapeFormulae: FORMULA_START, newline: '\r\n' })}\r\n`;
}

/** What Excel needs to read a CSV file as UTF-8. */
export const UTF8_BOM = '\ufeff';

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** `warranty-claims-2026-11-27.csv`: the form's name (or "form-21") in lower case and hyphens, and the day (UTC). */
export function exportFileName(formName: string | undefined, form: string, format: ExportFormat, now: number): string {
  const base =
    (formName ?? '')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) ||
    `form-${form
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 60)}`;
  return `${base}-${new Date(now).toISOString().slice(0, 10)}.${format}`;
}

/** Writes the workbook of `table` to `out` with exceljs's streaming writer; `drain` waits while `out` is full. */
export async function writeWorkbook(out: Writable, table: ExportTable, sheetName: string, drain: () => Promise<boolean>): Promise<void> {
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  book.creator = 'site-admin';
  // Excel's sheet names: at most 31 characters, none of : \ / ? * [ ].
  const sheet = book.addWorksheet(sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Cases', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const header = sheet.addRow(table.header());
  header.font = { bold: true };
  header.commit();
  let written = 0;
  for (const row of table.rows) {
    // A string is written as text, never as a formula, whatever it begins with.
    sheet.addRow(table.cells(row)).commit();
    written += 1;
    if (written % 500 === 0 && !(await drain())) return;
  }
  sheet.commit();
  await book.commit();
}
