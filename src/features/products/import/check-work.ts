/**
 * What the worker does, as plain functions: the worker calls them, and so does the page where there is
 * no worker (jsdom in the component tests).
 */
import Papa from 'papaparse';
import { settingsForSite } from '../model/codec';
import { checkImport } from './check';
import { collect, PARSE_CONFIG, parseSheet } from './parse';
import { ROWS_PER_MESSAGE, type FromWorker, type ToWorker } from './protocol';

export interface WorkState {
  rows: string[][];
}

/** Streams the rows of a file or text through papaparse, `ROWS_PER_MESSAGE` at a time. */
export async function parseSource(message: Extract<ToWorker, { type: 'parse' }>, state: WorkState, post: (m: FromWorker) => void): Promise<void> {
  const { id, source } = message;
  const started = performance.now();
  state.rows = [];
  const send = (rows: string[][]) => {
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) post({ type: 'rows', id, rows: rows.slice(i, i + ROWS_PER_MESSAGE) });
  };
  if (typeof source === 'string') {
    const sheet = parseSheet(source);
    state.rows = sheet.rows;
    send(sheet.rows);
    post({ type: 'parsed', id, headers: sheet.headers, delimiter: sheet.delimiter, errors: sheet.errors, ms: performance.now() - started });
    return;
  }
  // A file is read and parsed a chunk at a time (papaparse's streaming), never as one string.
  await new Promise<void>((resolve) => {
    let headers: string[] | null = null;
    let delimiter = ',';
    const errors: Papa.ParseError[] = [];
    Papa.parse<string[]>(source as File, {
      ...PARSE_CONFIG,
      chunkSize: 1024 * 1024,
      chunk(results) {
        delimiter = results.meta.delimiter;
        errors.push(...results.errors);
        let data = results.data;
        if (headers === null) {
          headers = collect(data.slice(0, 1), delimiter, []).headers;
          data = data.slice(1);
        }
        const sheet = collect([headers, ...data], delimiter, []);
        state.rows.push(...sheet.rows);
        send(sheet.rows);
      },
      complete() {
        const sheet = collect([headers ?? []], delimiter, errors);
        post({ type: 'parsed', id, headers: sheet.headers, delimiter, errors: sheet.errors, ms: performance.now() - started });
        resolve();
      },
      error(error) {
        post({ type: 'failed', id, message: error.message });
        resolve();
      },
    });
  });
}

export function runCheck(message: Extract<ToWorker, { type: 'check' }>, state: WorkState, post: (m: FromWorker) => void): void {
  const started = performance.now();
  if (message.rows) state.rows = message.rows;
  const settings = settingsForSite(message.locale, message.site);
  const result = checkImport(state.rows, message.mapping, message.fixes, { settings, site: message.site, createdSlugs: new Set(message.createdSlugs) });
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
