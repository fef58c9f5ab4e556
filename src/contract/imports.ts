/**
 * Imports kept on the server (`/api/imports...`): the file, the work on it and each product's status, shared
 * by every browser and every colleague who may create products on the site. The server is the authority;
 * a browser's IndexedDB is its offline copy. The shapes are zod schemas, read by the server's endpoints and by
 * the import page (which loads zod anyway; only the first page goes without it, decision 0003).
 */
import * as z from 'zod/mini';
import { errorDetailSchema, wireProductSchema } from './site-api';

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
 * Sent with a create or an update that belongs to an import: `<import id>/<product key>`. The server refuses
 * it (409, nothing forwarded) unless the page holds the import's run (IMPORT_RUNNER_HEADER) and the product
 * was never sent, or its last send was refused by the platform. Never forwarded to the platform.
 */
export const IMPORT_PRODUCT_HEADER = 'x-import-product';
/** The run's token, as the run's claim answered it. */
export const IMPORT_RUNNER_HEADER = 'x-import-runner';

/** The longest product key an import's write may name in IMPORT_PRODUCT_HEADER (the server refuses longer ones). */
export const IMPORT_KEY_MAX = 100;

/** How long a run's lease lasts without renewal: a page that died lets go after this. */
export const IMPORT_LEASE_MS = 20_000;
/** How often the running page renews its lease. */
export const IMPORT_RENEW_MS = 5_000;

/**
 * The largest body a new import may have (its file as JSON): the one endpoint above OWN_API_MAX_BODY_BYTES.
 * 10,000 rows of 60 columns of 40 characters, the size the import is built and measured for, is about 26 MB.
 */
export const IMPORT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** The encodings a text file may be read in (src/features/products/import/encoding.ts decides which). */
export const TEXT_ENCODINGS = ['utf-8', 'windows-1252', 'iso-8859-15', 'macintosh', 'utf-16le', 'utf-16be'] as const;

const whole = () => z.int();

/** Where the rows came from: pasted text, a text file in an encoding (and how it was decided), or a workbook's sheet. */
export const importSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('pasted') }),
  z.object({
    kind: z.literal('text'),
    encoding: z.enum(TEXT_ENCODINGS),
    how: z.enum(['bom', 'valid-utf-8', 'not-utf-8', 'chosen']),
    sample: z.string(),
    unreadable: z.number(),
  }),
  z.object({
    kind: z.literal('workbook'),
    sheets: z.array(z.object({ name: z.string(), rows: z.number() })),
    sheet: z.number(),
  }),
]);
export type FileSource = z.infer<typeof importSourceSchema>;

/** The file as read: every browser reads it back, from the server or from its own copy. */
export const importFileSchema = z.object({
  fileName: z.string().check(z.minLength(1, 'must be a name'), z.maxLength(500, 'must be a name')),
  /** Absent in imports stored before the source was recorded. */
  source: z.optional(importSourceSchema),
  delimiter: z.string(),
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())),
});
export type ImportFile = z.infer<typeof importFileSchema>;

/** The most products sent at a time. */
export const MAX_CONCURRENCY = 16;

/** The work on a file that every browser shares: the mapping, the fixes and the run's settings. */
export const sharedWorkSchema = z.object({
  /** A field per column of the file, or null. */
  mapping: z.array(z.nullable(z.string())),
  /** Cell text by `<row>:<column>`. */
  fixes: z.record(z.string(), z.string()),
  concurrency: whole().check(z.minimum(1, 'must be 1 to 16'), z.maximum(MAX_CONCURRENCY, 'must be 1 to 16')),
  /** Sending was started once: the page reopens on the progress, paused. */
  started: z.boolean(),
  /** The dry run's count of products, for the counts in the list and the activity record (absent: unchanged). */
  products: z.optional(whole().check(z.minimum(0, 'must be a count'), z.maximum(Number.MAX_SAFE_INTEGER))),
});
export type SharedWork = z.infer<typeof sharedWorkSchema>;

const version = whole().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));
const productKey = z.string().check(z.minLength(1), z.maxLength(100));

/**
 * `updated`: an update of a product of the site was answered 200; `conflict`: the update was not sent
 * because the product changed on the platform since the dry run read it (412): never sent again by itself.
 */
export const SERVER_PRODUCT_STATES = ['sending', 'created', 'updated', 'rejected', 'unknown', 'skipped', 'conflict'] as const;
export type ServerProductState = (typeof SERVER_PRODUCT_STATES)[number];

/** A product's status as the server keeps it (no entry: not sent yet). */
export const serverProductStatusSchema = z.object({
  status: z.enum(SERVER_PRODUCT_STATES),
  /** When it last changed (epoch ms). */
  at: z.number(),
  /** The create's (or the update's) entry in the activity record. */
  createSeq: z.nullable(z.number()),
  /** created, updated: the body sent and the platform's answer, as text. */
  body: z.optional(z.nullable(z.string())),
  answer: z.optional(z.nullable(z.string())),
  /** rejected: the status, message and details; unknown, skipped, conflict: why. */
  httpStatus: z.optional(z.number()),
  message: z.optional(z.string()),
  details: z.optional(z.array(errorDetailSchema)),
});
export type ServerProductStatus = z.infer<typeof serverProductStatusSchema>;

export const importCountsSchema = z.object({
  /** Products in the file (as the dry run counted them when the run was last taken). */
  products: z.number(),
  created: z.number(),
  /** Products of the site the import updated. */
  updated: z.number(),
  rejected: z.number(),
  unknown: z.number(),
  skipped: z.number(),
  /** Updates not sent: the product changed on the platform since the dry run. */
  conflict: z.number(),
  /** Not answered yet. */
  pending: z.number(),
});
export type ImportCounts = z.infer<typeof importCountsSchema>;

export const importRunnerSchema = z.object({
  name: z.string(),
  since: z.number(),
  /** Until when the lease holds without renewal. */
  until: z.number(),
});
export type ImportRunner = z.infer<typeof importRunnerSchema>;

export const importSummarySchema = z.object({
  id: z.string(),
  siteId: z.string(),
  fileName: z.string(),
  /** A person's name, or "Local demo". */
  startedBy: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  counts: importCountsSchema,
  /** Who is running it now (a live lease), or null. */
  runner: z.nullable(importRunnerSchema),
  /** Set once every product was answered. */
  endedAt: z.nullable(z.number()),
});
export type ImportSummary = z.infer<typeof importSummarySchema>;

/** GET IMPORTS_PATHS.one, and the answer to a new import. */
export const importRecordSchema = z.extend(importSummarySchema, {
  file: importFileSchema,
  /** As last saved; `products` is the count the server keeps. */
  work: sharedWorkSchema,
  version,
  /** By product key. */
  products: z.record(z.string(), serverProductStatusSchema),
});
export type ImportRecord = z.infer<typeof importRecordSchema>;

/** GET IMPORTS_PATHS.list. */
export const importListSchema = z.object({ imports: z.array(importSummarySchema) });

/**
 * A product's status as a page holds it (and its copy in the browser): the answer it heard, in its own words.
 */
export const productStatusSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('sending'), since: z.number() }),
  z.object({ status: z.literal('created'), at: z.number(), answer: z.record(z.string(), z.unknown()), body: wireProductSchema }),
  /** An update of a product of the site: the update's body as sent (ids and changed fields only). */
  z.object({
    status: z.literal('updated'),
    at: z.number(),
    answer: z.record(z.string(), z.unknown()),
    body: z.record(z.string(), z.unknown()),
  }),
  z.object({ status: z.literal('rejected'), httpStatus: z.number(), message: z.string(), details: z.array(errorDetailSchema) }),
  z.object({ status: z.literal('unknown'), message: z.string() }),
  z.object({ status: z.literal('skipped'), message: z.string() }),
  z.object({ status: z.literal('conflict'), message: z.string() }),
]);
export type ProductStatus = z.infer<typeof productStatusSchema>;

/** POST IMPORTS_PATHS.list. */
export const newImportBodySchema = z.object({
  site: z.string(),
  file: importFileSchema,
  work: sharedWorkSchema,
  /**
   * Statuses a page kept before the server did (an import of an earlier version), as that page kept them
   * (productStatusSchema, perhaps of an older version): the server reads only the status; the rest is kept as
   * it came.
   */
  products: z.optional(z.record(productKey, z.looseObject({ status: z.enum(SERVER_PRODUCT_STATES) }))),
});
export type NewImportBody = z.infer<typeof newImportBodySchema>;

/** PUT IMPORTS_PATHS.work. */
export const saveWorkBodySchema = z.object({ version, work: sharedWorkSchema });

/** The product of rows [start, end) is unsent again; the statuses of later rows move by `delta`. */
export const movedRowsSchema = z
  .object({ start: version, end: version, delta: whole().check(z.minimum(Number.MIN_SAFE_INTEGER), z.maximum(Number.MAX_SAFE_INTEGER)) })
  .check(z.refine((moved) => moved.end >= moved.start, { message: 'must give the rows replaced (start, end)', path: ['end'] }));

/** PUT IMPORTS_PATHS.file. */
export const replaceFileBodySchema = z.object({ version, file: importFileSchema, work: sharedWorkSchema, moved: movedRowsSchema });

/** The answer to a save of the work or the file: the import's new version. */
export const savedVersionSchema = z.object({ version: z.number() });

/** POST IMPORTS_PATHS.run: absent or null to take it, the token to renew it. */
export const claimRunBodySchema = z.object({ runner: z.optional(z.nullable(z.string().check(z.maxLength(100)))) });
/** The answer to a claim: the run's token and until when the lease holds. */
export const claimedRunSchema = z.object({ runner: z.string(), leaseUntil: z.number() });

/** POST IMPORTS_PATHS.release. */
export const releaseRunBodySchema = z.object({ runner: z.string(), finished: z.optional(z.boolean()) });

/** PUT IMPORTS_PATHS.product. */
export const decideProductBodySchema = z.object({ status: z.enum(['skipped', 'pending']) });

/** "Ana Ruiz is running this import since 14:02", in the reader's own clock. */
export function runningSentence(runner: Pick<ImportRunner, 'name' | 'since'>, locale?: string, timeZone?: string): string {
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone }).format(runner.since);
  return `${runner.name} is running this import since ${time}${timeZone === 'UTC' ? ' UTC' : ''}.`;
}
