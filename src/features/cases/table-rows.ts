/**
 * The field table as one list of rows, section titles among them, each with a guess of its height for
 * the rows not yet on screen (the table measures every row it renders; the guesses only size the space
 * of the rest, so that the scroll bar is about right). Pure.
 */
import { isJsonObject } from '@/contract/site-api-basics';
import type { FieldRow, FieldSection } from './case-fields';

export type TableRow =
  | { kind: 'title'; key: string; section: FieldSection; estimate: number }
  | { kind: 'field'; key: string; section: FieldSection; row: FieldRow; estimate: number };

/** Heights on a wide screen, in px: a row of one line (padding, line, border), each further line. */
const ONE_LINE = 35;
const LINE = 21;
/** A nested entry: its name, its value, the space between entries. */
const NESTED_ENTRY = 50;
/** Characters on one line of the value column, and of the field column (label and key), about. */
const LINE_CHARS = 56;
const NAME_CHARS = 28;
/** Long text shows at most this many lines, and its Show all button. */
const SHOWN_LINES = 7;

function lines(text: string): number {
  let count = 0;
  for (const line of text.split('\n', SHOWN_LINES)) count += Math.max(1, Math.ceil(line.length / LINE_CHARS));
  return Math.min(count, SHOWN_LINES);
}

/** A guess at a row's height from its value's shape (without classifying it) and its name's length. */
export function estimateHeight(value: unknown, name = ''): number {
  // A label and key too long for one line put the key on a second.
  return Math.max(valueHeight(value), name.length > NAME_CHARS ? ONE_LINE + LINE : ONE_LINE);
}

function valueHeight(value: unknown): number {
  if (typeof value === 'string') return ONE_LINE + (lines(value) - 1) * LINE;
  if (isJsonObject(value)) {
    const entries = Object.keys(value).length;
    // Small objects start open (a button line, then the entries); large ones closed.
    return entries > 0 && entries <= 12 ? ONE_LINE + LINE + entries * NESTED_ENTRY : ONE_LINE;
  }
  if (Array.isArray(value) && value.some((item) => typeof item === 'object' && item !== null)) {
    return ONE_LINE + LINE + Math.min(value.length, 12) * NESTED_ENTRY;
  }
  return ONE_LINE;
}

/** Every row of the table in order; a title row before each section's fields when `withTitles`. */
export function tableRows(sections: readonly FieldSection[], withTitles: boolean): TableRow[] {
  const rows: TableRow[] = [];
  for (const section of sections) {
    if (withTitles) rows.push({ kind: 'title', key: `title:${section.id}`, section, estimate: ONE_LINE + 2 });
    for (const row of section.rows) {
      rows.push({ kind: 'field', key: `field:${row.path}`, section, row, estimate: estimateHeight(row.value, `${row.label} ${row.key}`) });
    }
  }
  return rows;
}
