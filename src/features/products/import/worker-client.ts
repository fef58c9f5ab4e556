/**
 * The page's side of the worker: one request at a time per kind, answered by promise. Where the browser
 * has no Worker (jsdom), the same functions run on the page.
 */
import { handle, type WorkState } from './check-work';
import type { CheckResult } from './check';
import type { TextEncodingName } from './encoding';
import type { FileSource } from './import-store';
import type { FromWorker, ToWorker } from './protocol';

type CheckRequest = Omit<Extract<ToWorker, { type: 'check' }>, 'id' | 'type'>;

export interface ParsedFile {
  headers: string[];
  delimiter: string;
  source: FileSource;
  rows: string[][];
  errors: { line: number; message: string }[];
  /** Time the parsing took where it ran (the worker). */
  ms: number;
}

export interface CheckClient {
  /** `choice`: an encoding or a sheet the person picked, where the first reading was not what they meant. */
  parse(source: Blob | string, locale: string, choice?: { encoding?: TextEncodingName; sheet?: number }): Promise<ParsedFile>;
  check(request: CheckRequest): Promise<{ result: CheckResult; ms: number }>;
  dispose(): void;
}

export function createCheckClient(): CheckClient {
  let nextId = 1;
  const pending = new Map<number, { rows: string[][]; resolve: (m: FromWorker) => void }>();
  const receive = (message: FromWorker) => {
    const entry = pending.get(message.id);
    if (!entry) return;
    if (message.type === 'rows') {
      for (const row of message.rows) entry.rows.push(row);
      return;
    }
    pending.delete(message.id);
    entry.resolve(message);
  };
  let post: (message: ToWorker) => void;
  let dispose = () => undefined as void;
  if (typeof Worker === 'undefined') {
    const state: WorkState = { rows: [] };
    post = (message) => void handle(message, state, receive);
  } else {
    const worker = new Worker(new URL('./check.worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<FromWorker>) => receive(event.data));
    post = (message) => worker.postMessage(message);
    dispose = () => worker.terminate();
  }
  const request = (message: ToWorker) =>
    new Promise<{ message: FromWorker; rows: string[][] }>((resolve) => {
      const rows: string[][] = [];
      pending.set(message.id, { rows, resolve: (m) => resolve({ message: m, rows }) });
      post(message);
    });
  return {
    async parse(source, locale, choice = {}) {
      const { message, rows } = await request({ type: 'parse', id: nextId++, source, locale, ...choice });
      if (message.type === 'failed') throw new Error(message.message);
      if (message.type !== 'parsed') throw new Error('Unexpected answer from the import worker');
      return {
        headers: message.headers,
        delimiter: message.delimiter,
        source: message.source,
        errors: message.errors,
        rows,
        ms: message.ms,
      };
    },
    async check(req) {
      const { message } = await request({ type: 'check', id: nextId++, ...req });
      if (message.type === 'failed') throw new Error(message.message);
      if (message.type !== 'checked') throw new Error('Unexpected answer from the import worker');
      return { result: message.result, ms: message.ms };
    },
    dispose: () => dispose(),
  };
}
