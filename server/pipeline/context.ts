/**
 * One request on its way through the pipeline (see app.ts): what it asks, parsed once from the request line,
 * and what the steps have learnt about it so far. Each step reads what the steps before it filled in,
 * answers (and stops), or hands the request on with `next()`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_BASE_PATH } from '../../src/contract/site-api';
import type { WriteKind, WriteOutcome } from '../../src/contract/write-outcome';
import type { Identity } from '../identity';

/** Addresses that name their site: `/api/s/{site}/site/v2/...`. */
export const SITE_ADDRESS_PREFIX = '/api/s/';
/** The part of a site's address where Site API v2 starts, after `/api/s/{site}`. */
export const SITE_API_SUFFIX = '/site/v2';

/**
 * What the address asks for, from its path alone (still encoded: ids are compared as they came).
 *
 * - `site`: a site's Site API v2, `/api/s/{site}/site/v2/...`, or the short `/api/site/v2/...` (`site`
 *   null) that reaches the one site of a server that has one. `operationPath` is what follows the base
 *   (`/forms/3/cases/1`, or '' for the base itself); null when the address names a site but not its API
 *   (`/api/s/north/meta`).
 * - `own-api`: every other address under /api: our own small endpoints.
 * - `page`: everything else: the app's pages and files.
 */
export type Address =
  { kind: 'site'; site: string | null; base: string; operationPath: string | null } | { kind: 'own-api' } | { kind: 'page' };

/** One of the operations of Site API v2 that the proxy forwards, as the allowlist admitted it. */
export interface Operation {
  name: OperationName;
  method: 'GET' | 'POST' | 'PUT';
  /** The path under the platform's base address, with its identifiers checked and decoded (and a list's checked query). */
  upstreamPath: string;
}
/**
 * A lookup, a list of a form's cases (src/contract/case-list.ts), or one of the writes
 * (src/contract/write-outcome.ts, whose table says what their answers mean).
 */
export type OperationName = 'get-form-case' | 'list-form-cases' | 'list-products' | 'get-product' | WriteKind;

/**
 * How a forwarded call ended, as the browser is about to be told: `answered` when the platform answered
 * `status` (`body`: its JSON as passed on, read only when asked, or null for an error turned into our
 * shape or a body that was not JSON); `failed` when there was no usable answer: our own status (502, 504,
 * 413, or 503 when a hook stopped a write before it left) and why, `status` 0 when the browser went away
 * first.
 */
export type ForwardOutcome = (
  { kind: 'answered'; status: number; readonly body: string | null } | { kind: 'failed'; status: number; reason: string }
) & {
  /** Whether the call left for the platform: false for a write refused or stopped before it was sent. */
  sent: boolean;
  /** For a write, what its answer means: the one table (src/contract/write-outcome.ts); null for a lookup. */
  write: WriteOutcome | null;
};

/** What the hooks before have learnt of a write as it left, for the hooks after them. */
export interface WriteNotes {
  /** The write's entry in the activity record, committed before it left. */
  recordSeq?: number;
  /** For a product update: the product as the server read it just before sending (the platform's answer, as text). */
  productBefore?: string;
  /** For a product update that reverts an earlier one: that update's entry in the activity record (checked). */
  revertOf?: number;
  /** For a write a site's rule held back: the approved change it sends (server/approvals/require-approval.ts). */
  approvedChange?: string;
}

/**
 * Thrown by a hook's `beforeSend` to refuse a write for a reason of its own (a body the rules refuse, a
 * product changed since it was read): the browser gets this status and message in the spec's error shape,
 * nothing is sent, and every hook's `beforeAnswer` hears a write not sent.
 */
export class WriteRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: { field: string; message: string }[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/**
 * What a pipeline step must see of a forwarded call, each awaited before the call goes on. A step adds
 * its hook to `forwardHooks`; the proxy runs them in that order (the order of the steps):
 * - `beforeSend` gets a write's whole body before the platform is contacted, with what the hooks before
 *   it noted, and returns what the hooks after it need. When one fails, nothing is sent, the browser gets
 *   503 and every hook's `beforeAnswer` hears that the write was not sent.
 * - `beforeAnswer` gets the outcome before the browser does, every hook's in turn even when one before it
 *   failed (then the answer goes out all the same, unless the failing hook has `answerOnlyOnceRecorded`).
 */
export interface ForwardHook {
  beforeSend?(body: Buffer, noted: Readonly<WriteNotes>): Promise<WriteNotes | void>;
  beforeAnswer?(outcome: ForwardOutcome, noted: Readonly<WriteNotes>): Promise<void>;
  /** When this hook's `beforeAnswer` fails, the browser gets 503 instead of the answer (a lookup's: nothing unrecorded is shown). */
  answerOnlyOnceRecorded?: boolean;
}

/** The site an address named, as site resolution found it among the configured sites. */
export interface ResolvedSite {
  /** Its id in the profile (`main` without one). */
  id: string;
  /**
   * Its proxy: forwards an admitted operation to its platform (or the sandbox), with its key (proxy.ts);
   * `hooks` let the activity record and the import see a write before it leaves and every outcome before the browser does.
   */
  forward(req: IncomingMessage, res: ServerResponse, operation: Operation, requestId: string, hooks?: readonly ForwardHook[]): void;
}

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** In dev, Vite's next middleware: serves what is not ours. */
  readonly passOn: (() => void) | undefined;
  readonly method: string;
  /** GET or HEAD: asks, changes nothing, carries no body. */
  readonly readOnly: boolean;
  /** The request target as sent, query included. */
  readonly url: string;
  /** The path, without the query, still encoded. */
  readonly path: string;
  readonly address: Address;
  /** Set by authentication, for a site's call or our own API (not for the app's pages). */
  who?: Identity;
  /** Set by site resolution, for an address of a site. */
  site?: ResolvedSite;
  /** Set by the request log of a site's calls: sent back, and on to the platform, as x-request-id. */
  requestId?: string;
  /** Set by the operation allowlist: what the log calls the request (`not-allowed` until it is admitted). */
  operationName?: OperationName | 'not-allowed';
  /** Set by the operation allowlist, for an admitted operation. */
  operation?: Operation;
  /** Added to by the activity record's step and the import's: what each must see of the call as it is forwarded, in order. */
  forwardHooks?: ForwardHook[];
}

/** What an address asks for; see Address. */
export function addressOf(path: string): Address {
  if (path.startsWith(SITE_ADDRESS_PREFIX) || path === SITE_ADDRESS_PREFIX.slice(0, -1)) {
    // The site is the whole first segment, as it came.
    const afterPrefix = path.slice(SITE_ADDRESS_PREFIX.length);
    const slash = afterPrefix.indexOf('/');
    const site = slash < 0 ? afterPrefix : afterPrefix.slice(0, slash);
    const base = `${SITE_ADDRESS_PREFIX}${site}${SITE_API_SUFFIX}`;
    const operationPath = path === base ? '' : path.startsWith(`${base}/`) ? path.slice(base.length) : null;
    return { kind: 'site', site, base, operationPath };
  }
  if (path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`)) {
    return { kind: 'site', site: null, base: API_BASE_PATH, operationPath: path.slice(API_BASE_PATH.length) };
  }
  if (path === '/api' || path.startsWith('/api/')) return { kind: 'own-api' };
  return { kind: 'page' };
}

/** Reads the request line once; every step works from what this returns. */
export function parseRequest(req: IncomingMessage, res: ServerResponse, passOn?: () => void): RequestContext {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  return { req, res, passOn, method, readOnly: method === 'GET' || method === 'HEAD', url, path, address: addressOf(path) };
}

/** A step of the pipeline: answers the request itself, or calls `next()` to hand it on. */
export type Step = (request: RequestContext, next: () => void) => void;

/** The steps in order, as one handler: each step's `next` is the step after it; the last one must answer. */
export function runSteps(steps: readonly Step[]): (request: RequestContext) => void {
  const runFrom = (index: number, request: RequestContext): void => {
    const step = steps[index];
    if (!step) throw new Error('The last step of the pipeline handed the request on: nothing answered it.');
    step(request, () => runFrom(index + 1, request));
  };
  return (request) => runFrom(0, request);
}
