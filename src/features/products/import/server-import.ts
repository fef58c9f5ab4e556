/**
 * The import as the server keeps it (src/contract/imports.ts): the calls the page makes, and the server's
 * statuses in the page's own shape. The server is the authority; IndexedDB (import-store.ts) is this
 * browser's copy for when the server cannot be reached.
 */
import type * as z from 'zod/mini';
import {
  claimedRunSchema,
  IMPORTS_PATHS,
  importListSchema,
  importPath,
  importRecordSchema,
  savedVersionSchema,
  type ImportRecord,
  type ServerProductStatus,
  type SharedWork,
} from '@/contract/imports';
import { callOwnApi } from '@/lib/api-client';
import { ApiError, apiErrors } from '@/lib/api-error';
import { kindOfOwnApiFailure, ownApiFailureText } from '@/lib/own-api-failure';
import type { ImportFile, ImportWork, ProductStatus } from './import-store';

/** The work as the server keeps it: what every browser shares (statuses are the server's own). */
export const sharedWork = (work: ImportWork, products?: number): SharedWork => ({
  mapping: work.mapping,
  fixes: work.fixes,
  concurrency: work.concurrency,
  started: work.started,
  products,
});

/** The server could not be reached, or could not answer (not a refusal): the page works from its copy. */
export function unreachable(error: unknown): boolean {
  const kind = kindOfOwnApiFailure(error);
  return kind === 'unreachable' || kind === 'unexpected';
}

/** A refusal's message, as the server said it. */
export function saidOf(error: unknown): string | null {
  return error instanceof ApiError ? ownApiFailureText(error) : null;
}

const parseJson = (text: string | null | undefined): unknown => {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    return null;
  }
};

/** One product's status from the server's, in the page's shape. */
export function statusOf(server: ServerProductStatus): ProductStatus {
  switch (server.status) {
    case 'sending':
      return { status: 'sending', since: server.at };
    case 'created': {
      const answer = parseJson(server.answer);
      const body = parseJson(server.body);
      return {
        status: 'created',
        at: server.at,
        answer: typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {},
        body: typeof body === 'object' && body !== null ? body : { name: '', enabled: 'true' },
      };
    }
    case 'updated': {
      const answer = parseJson(server.answer);
      const body = parseJson(server.body);
      return {
        status: 'updated',
        at: server.at,
        answer: typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>) : {},
        body: typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {},
      };
    }
    case 'conflict':
      return { status: 'conflict', message: server.message ?? 'Changed on the platform since the dry run: this update was not sent.' };
    case 'rejected':
      return { status: 'rejected', httpStatus: server.httpStatus ?? 0, message: server.message ?? '', details: server.details ?? [] };
    case 'unknown':
      return { status: 'unknown', message: server.message ?? 'The outcome of this product is unknown: it may have been created.' };
    case 'skipped':
      return { status: 'skipped', message: server.message ?? 'Skipped by hand after an unknown outcome' };
  }
}

/**
 * The server's statuses, keeping this page's own where they say the same thing (the page heard the answer
 * itself, in its own words).
 */
export function mergeStatuses(server: Record<string, ServerProductStatus>, local: ImportWork['statuses']): ImportWork['statuses'] {
  const merged: ImportWork['statuses'] = {};
  for (const [key, status] of Object.entries(server)) {
    const mine = local[key];
    merged[key] = mine && mine.status === status.status ? mine : statusOf(status);
  }
  return merged;
}

/** The file and work of a server's import, as the page holds them. */
export function fromRecord(record: ImportRecord, local: ImportWork['statuses'] = {}): { file: ImportFile; work: ImportWork } {
  const { work } = record;
  return {
    file: record.file,
    work: {
      mapping: work.mapping,
      fixes: work.fixes,
      concurrency: work.concurrency,
      started: work.started,
      statuses: mergeStatuses(record.products, local),
      serverId: record.id,
      version: record.version,
    },
  };
}

/** An answer of our server in the shape the contract gives it, or the failure of an answer this page cannot read. */
function answerOf<S extends z.ZodMiniType>(schema: S, answer: unknown): z.infer<S> {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  throw apiErrors.notJson(200, null, null, 'The server answered with something this page cannot read as an import.');
}

export const listImports = async (siteId: string, signal?: AbortSignal) =>
  answerOf(importListSchema, await callOwnApi(`${IMPORTS_PATHS.list}?site=${encodeURIComponent(siteId)}`, {}, signal)).imports;

export const readImport = async (id: string, signal?: AbortSignal) =>
  answerOf(importRecordSchema, await callOwnApi(importPath(IMPORTS_PATHS.one, id), {}, signal));

export const createImport = async (
  siteId: string,
  file: ImportFile,
  work: SharedWork,
  known: ImportWork['statuses'] = {},
): Promise<ImportRecord> =>
  answerOf(
    importRecordSchema,
    await callOwnApi(IMPORTS_PATHS.list, { method: 'POST', body: { site: siteId, file, work, products: known } }),
  );

export const saveWork = async (id: string, version: number, work: SharedWork) =>
  answerOf(savedVersionSchema, await callOwnApi(importPath(IMPORTS_PATHS.work, id), { method: 'PUT', body: { version, work } })).version;

export const replaceFile = async (
  id: string,
  version: number,
  file: ImportFile,
  work: SharedWork,
  moved: { start: number; end: number; delta: number },
) =>
  answerOf(
    savedVersionSchema,
    await callOwnApi(importPath(IMPORTS_PATHS.file, id), { method: 'PUT', body: { version, file, work, moved } }),
  ).version;

export const claimRun = async (id: string, runner: string | null) =>
  answerOf(claimedRunSchema, await callOwnApi(importPath(IMPORTS_PATHS.run, id), { method: 'POST', body: { runner } }));

export const releaseRun = (id: string, runner: string, finished: boolean) =>
  callOwnApi(importPath(IMPORTS_PATHS.release, id), { method: 'POST', body: { runner, finished } });

/** The release as the page goes away: a request the browser finishes after the page is gone. */
export function releaseOnLeave(id: string, runner: string) {
  void fetch(importPath(IMPORTS_PATHS.release, id), {
    method: 'POST',
    keepalive: true,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ runner, finished: false }),
  }).catch(() => undefined);
}

export const decideProduct = (id: string, key: string, status: 'skipped' | 'pending') =>
  callOwnApi(importPath(IMPORTS_PATHS.product, id, key), { method: 'PUT', body: { status } });

export const discardImport = (id: string) => callOwnApi(importPath(IMPORTS_PATHS.one, id), { method: 'DELETE' });

/** The run's token of this tab, per import: a reload takes back its own run instead of waiting for it to lapse. */
const tokenKey = (id: string) => `site-admin:import:runner:${id}`;
export const runnerToken = {
  read: (id: string) => {
    try {
      return sessionStorage.getItem(tokenKey(id));
    } catch {
      return null;
    }
  },
  write: (id: string, token: string | null) => {
    try {
      if (token === null) sessionStorage.removeItem(tokenKey(id));
      else sessionStorage.setItem(tokenKey(id), token);
    } catch {
      // Without session storage, a reload waits for the lease to lapse.
    }
  },
};
