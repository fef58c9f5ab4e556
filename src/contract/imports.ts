/**
 * Imports kept on the server (`/api/imports...`): the file, the work on it and each product's status, shared
 * by every browser and every colleague who may create products on the site. The server is the authority;
 * a browser's IndexedDB is its offline copy. Written without zod, like the rest of what the first pages read.
 */

export const IMPORTS_PATHS = {
  /** GET `?site=<id>`: the site's open imports (ImportSummary[]); POST {site, file, work}: a new one. */
  list: '/api/imports',
  /** GET: the file, the work and each product's status (ImportRecord); DELETE: discard it (start over). */
  one: '/api/imports/:id',
  /** PUT {version, work}: the mapping, fixes and settings; 409 when `version` is not the latest. */
  work: '/api/imports/:id/work',
  /**
   * PUT {version, file, work, moved: {start, end, delta}}: the file changed by the editor's round trip; the
   * product of rows [start, end) is unsent again, and the statuses of later rows move by `delta`.
   */
  file: '/api/imports/:id/file',
  /** POST {runner?}: take the run, or renew it (with the token the first call gave); 409 names who runs it. */
  run: '/api/imports/:id/run',
  /** POST {runner, finished}: let the run go (a pause, or every product answered). */
  release: '/api/imports/:id/release',
  /** PUT {status: 'skipped' | 'pending'}: a person's decision on a product whose outcome is unknown (or rejected). */
  product: '/api/imports/:id/products/:key',
} as const;

/** The address of `path` (one of IMPORTS_PATHS) for an import, and a product. */
export function importPath(path: string, id: string, key?: string): string {
  return path.replace(':id', encodeURIComponent(id)).replace(':key', encodeURIComponent(key ?? ''));
}

/**
 * Sent with a create that belongs to an import: `<import id>/<product key>`. The server refuses it (409,
 * nothing forwarded) unless the page holds the import's run (IMPORT_RUNNER_HEADER) and the product was never
 * created nor is on its way. Never forwarded to the platform.
 */
export const IMPORT_PRODUCT_HEADER = 'x-import-product';
/** The run's token, as the run's claim answered it. */
export const IMPORT_RUNNER_HEADER = 'x-import-runner';

/** How long a run's lease lasts without renewal: a page that died lets go after this. */
export const IMPORT_LEASE_MS = 20_000;
/** How often the running page renews its lease. */
export const IMPORT_RENEW_MS = 5_000;

/**
 * The largest body a new import may have (its file as JSON): the one endpoint above OWN_API_MAX_BODY_BYTES.
 * 10,000 rows of 60 columns of 40 characters, the size the import is built and measured for, is about 26 MB.
 */
export const IMPORT_MAX_BODY_BYTES = 32 * 1024 * 1024;

export type ServerProductState = 'sending' | 'created' | 'rejected' | 'unknown' | 'skipped';

/** A product's status as the server keeps it (no entry: not sent yet). */
export interface ServerProductStatus {
  status: ServerProductState;
  /** When it last changed (epoch ms). */
  at: number;
  /** The create's entry in the activity record. */
  createSeq: number | null;
  /** created: the body sent and the platform's answer, as text. */
  body?: string | null;
  answer?: string | null;
  /** rejected: the status, message and details; unknown, skipped: why. */
  httpStatus?: number;
  message?: string;
  details?: { field: string; message: string }[];
}

export interface ImportCounts {
  /** Products in the file (as the dry run counted them when the run was last taken). */
  products: number;
  created: number;
  rejected: number;
  unknown: number;
  skipped: number;
  /** Not answered yet. */
  pending: number;
}

export interface ImportRunner {
  name: string;
  since: number;
  /** Until when the lease holds without renewal. */
  until: number;
}

export interface ImportSummary {
  id: string;
  siteId: string;
  fileName: string;
  /** A person's name, or "Local demo". */
  startedBy: string;
  createdAt: number;
  updatedAt: number;
  counts: ImportCounts;
  /** Who is running it now (a live lease), or null. */
  runner: ImportRunner | null;
  /** Set once every product was answered. */
  endedAt: number | null;
}

export interface ImportRecord extends ImportSummary {
  /** As created: fileName, source, delimiter, headers, rows. */
  file: unknown;
  /** mapping, fixes, concurrency, started, products. */
  work: unknown;
  version: number;
  /** By product key. */
  products: Record<string, ServerProductStatus>;
}

/** "Ana Ruiz is running this import since 14:02", in the reader's own clock. */
export function runningSentence(runner: Pick<ImportRunner, 'name' | 'since'>, locale?: string, timeZone?: string): string {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone }).format(runner.since);
  return `${runner.name} is running this import since ${time}${timeZone === 'UTC' ? ' UTC' : ''}.`;
}
