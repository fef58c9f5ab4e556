/**
 * The messages between the import page and its worker. Parsing a file and checking every product run
 * there, so a file of 10,000 rows never holds up the page; rows come back in chunks, so no single message
 * takes long to receive.
 */
import type { SiteInfo } from '@/contract/site-info';
import type { Mapping } from './columns';
import type { CheckResult } from './check';
import type { TextEncodingName } from './encoding';
import type { FileSource } from './import-store';
import type { CatalogueProduct } from './updates';

export type ToWorker =
  /** `encoding` and `sheet`: the person's choice, when the first reading was not what they meant. */
  | { type: 'parse'; id: number; source: Blob | string; locale: string; encoding?: TextEncodingName; sheet?: number }
  /** `rows` when the worker does not have them yet (an import restored from storage). */
  | {
      type: 'check';
      id: number;
      rows?: string[][];
      mapping: Mapping;
      fixes: Record<string, string>;
      site: SiteInfo;
      locale: string;
      createdSlugs: string[];
      /** The site's products, when the worker does not have these yet (read once at the dry run). */
      catalogue?: CatalogueProduct[];
    };

export type FromWorker =
  | { type: 'rows'; id: number; rows: string[][] }
  | {
      type: 'parsed';
      id: number;
      headers: string[];
      delimiter: string;
      source: FileSource;
      errors: { line: number; message: string }[];
      ms: number;
    }
  | { type: 'checked'; id: number; result: CheckResult; ms: number }
  | { type: 'failed'; id: number; message: string };

/** Rows per message: about 1 ms to receive on the main thread. */
export const ROWS_PER_MESSAGE = 1000;
