/**
 * What the worker does, as plain functions: the worker calls them, and so does the page where there is
 * no worker (jsdom in the component tests).
 */
import { settingsForSite } from '../model/codec';
import { checkImport } from './check';
import { decodeText, isWorkbook, sampleLine } from './encoding';
import type { FileSource } from './import-store';
import { collect, parseSheet, type ParsedSheet } from './parse';
import { ROWS_PER_MESSAGE, type FromWorker, type ToWorker } from './protocol';
import type { Catalogue } from './updates';
import { readWorkbook } from './workbook';

export interface WorkState {
  rows: string[][];
  /** The site's products by slug, as the page last sent them. */
  catalogue?: Catalogue;
}

/**
 * Reads pasted text, a text file or a workbook into rows, `ROWS_PER_MESSAGE` at a time. A file's bytes are
 * read whole: its encoding is decided on all of them before anything is parsed (encoding.ts), and a
 * workbook is recognised by its first bytes, whatever its name says.
 */
export async function parseSource(
  message: Extract<ToWorker, { type: 'parse' }>,
  state: WorkState,
  post: (m: FromWorker) => void,
): Promise<void> {
  const { id, source, locale } = message;
  const started = performance.now();
  state.rows = [];
  const send = (rows: string[][]) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) post({ type: 'rows', id, rows: rows.slice(i, i + ROWS_PER_MESSAGE) });
  };
  const finish = (sheet: ParsedSheet, fileSource: FileSource) => {
    state.rows = sheet.rows;
    send(sheet.rows);
    post({
      type: 'parsed',
      id,
      headers: sheet.headers,
      delimiter: sheet.delimiter,
      source: fileSource,
      errors: sheet.errors,
      ms: performance.now() - started,
    });
  };
  if (typeof source === 'string') return finish(parseSheet(source), { kind: 'pasted' });
  const bytes = new Uint8Array(await source.arrayBuffer());
  if (isWorkbook(bytes)) {
    const book = await readWorkbook(bytes, locale, message.sheet);
    return finish(collect(book.table, '', []), { kind: 'workbook', sheets: book.sheets, sheet: book.sheet });
  }
  const decoded = decodeText(bytes, message.encoding);
  const sheet = parseSheet(decoded.text);
  finish(sheet, {
    kind: 'text',
    encoding: decoded.encoding,
    how: decoded.how,
    sample: sampleLine(decoded.text),
    unreadable: decoded.unreadable,
  });
}

export function runCheck(message: Extract<ToWorker, { type: 'check' }>, state: WorkState, post: (m: FromWorker) => void): void {
  const started = performance.now();
  if (message.rows) state.rows = message.rows;
  if (message.catalogue) state.catalogue = new Map(message.catalogue.map((product) => [product.slug, product]));
  const settings = settingsForSite(message.locale, message.site);
  const result = checkImport(state.rows, message.mapping, message.fixes, {
    settings,
    site: message.site,
    createdSlugs: new Set(message.createdSlugs),
    catalogue: state.catalogue,
  });
  post({ type: 'checked', id: message.id, result, ms: performance.now() - started });
}

export async function handle(message: ToWorker, state: WorkState, post: (m: FromWorker) => void): Promise<void> {
  try {
    if (message.type === 'parse') await parseSource(message, state, post);
    else runCheck(message, state, post);
  } catch (error) {
    post({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) });
  }
}
