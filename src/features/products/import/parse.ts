/**
 * Reading a spreadsheet's text with papaparse: CSV or TSV, comma, semicolon or tab (guessed), quoted
 * fields with line breaks, a block pasted from Excel or Google Sheets (tabs). The first row is the header.
 * A file's bytes are decoded first (encoding.ts); a byte order mark left in pasted text is dropped here.
 * Shared by the worker and the tests.
 */
import Papa from 'papaparse';

export interface ParsedSheet {
  delimiter: string;
  headers: string[];
  rows: string[][];
  /** Lines papaparse could not read cleanly (an unclosed quote), counted from 1 as a spreadsheet does. */
  errors: { line: number; message: string }[];
}

const PARSE_CONFIG = {
  delimiter: '',
  delimitersToGuess: [',', ';', '\t'],
  // Blank lines, and lines of nothing but separators, are not rows.
  skipEmptyLines: 'greedy',
  header: false,
} as const satisfies Papa.ParseConfig;

const stripBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** Rows as papaparse gives them, headers split off, every row as long as the header. */
export function collect(data: readonly string[][], delimiter: string, errors: readonly Papa.ParseError[]): ParsedSheet {
  const [head = [], ...rest] = data;
  const headers = head.map((h, i) => (i === 0 ? stripBom(h) : h));
  const width = headers.length;
  const rows = rest.map((row) => (row.length === width ? row : Array.from({ length: width }, (_, i) => row[i] ?? '')));
  return {
    delimiter,
    headers,
    rows,
    errors: errors.filter((e) => e.code !== 'UndetectableDelimiter').map((e) => ({ line: (e.row ?? 0) + 1, message: e.message })),
  };
}

/** Parses a whole text at once. */
export function parseSheet(text: string): ParsedSheet {
  const result = Papa.parse<string[]>(stripBom(text), PARSE_CONFIG);
  return collect(result.data, result.meta.delimiter, result.errors);
}
