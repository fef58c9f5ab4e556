/**
 * The fetch layer: same-origin calls to our server, which adds the platform's credentials.
 * It only returns or throws: what a user sees is decided by the feature that called it.
 */
import { serverMetaSchema, SERVER_META_PATH, type ServerMeta } from '@/contract/server-meta';
import {
  API_BASE_PATH,
  CREATE_PRODUCT_PATH,
  errorBodySchema,
  formCasePath,
  formCaseSchema,
  type ErrorDetail,
  type FormCase,
  type WireProduct,
} from '@/contract/site-api';

/**
 * - `api`: the platform (or our server) answered with an error status.
 * - `network`: no answer at all (offline, server down, connection dropped).
 * - `timeout`: no answer within the time limit; the outcome of a write is unknown.
 * - `invalid-response`: an answer that is not the JSON we expect.
 */
export type ApiErrorKind = 'api' | 'network' | 'timeout' | 'invalid-response';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The status phrase from the error body, e.g. "Not Found". */
  readonly error: string;
  readonly code: number;
  readonly details: readonly ErrorDetail[];

  constructor(init: { kind: ApiErrorKind; status: number; error: string; message: string; details?: readonly ErrorDetail[] }) {
    super(init.message);
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.error = init.error;
    this.code = init.status;
    this.details = init.details ?? [];
  }
}

export const REQUEST_TIMEOUT_MS = 30_000;

async function request(path: string, init: RequestInit & { signal?: AbortSignal | null } = {}): Promise<unknown> {
  const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(path, { ...init, signal, headers: { accept: 'application/json', ...init.headers } });
  } catch (cause) {
    // A cancellation by the caller is not a failure to report: pass it on untouched.
    if (init.signal?.aborted) throw cause;
    if (timeout.aborted) {
      throw new ApiError({ kind: 'timeout', status: 0, error: 'Timeout', message: `No answer within ${REQUEST_TIMEOUT_MS / 1000} seconds.` });
    }
    throw new ApiError({ kind: 'network', status: 0, error: 'Network Error', message: 'The server could not be reached.' });
  }

  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new ApiError({ kind: 'network', status: response.status, error: 'Network Error', message: 'The answer was cut off.' });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError({
      kind: 'invalid-response',
      status: response.status,
      error: response.statusText || 'Invalid Response',
      message: `The server answered ${response.status} with something that is not JSON.`,
    });
  }

  if (!response.ok) {
    const body = errorBodySchema.safeParse(json);
    throw new ApiError({
      kind: 'api',
      status: response.status,
      error: body.success ? body.data.error : response.statusText || `HTTP ${response.status}`,
      message: body.success ? body.data.message : `The server answered ${response.status}.`,
      details: body.success ? body.data.details : undefined,
    });
  }
  return json;
}

function expectObject(json: unknown, what: string): FormCase {
  const parsed = formCaseSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({ kind: 'invalid-response', status: 200, error: 'Invalid Response', message: `${what} is not a JSON object.` });
  }
  return parsed.data;
}

/** GET /forms/{form}/cases/{id}: any JSON object, including `{}`. */
export async function getFormCase(form: string, id: string, signal?: AbortSignal): Promise<FormCase> {
  const json = await request(API_BASE_PATH + formCasePath(form, id), { signal });
  return expectObject(json, 'The case');
}

/** POST /ecommerce/products/create: the platform may answer with the record or with `{}`. */
export async function createProduct(body: WireProduct, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const json = await request(API_BASE_PATH + CREATE_PRODUCT_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  return expectObject(json, 'The answer to create');
}

/** Our server's mode: sandbox, or which platform host and site. */
export async function getServerMeta(signal?: AbortSignal): Promise<ServerMeta> {
  const json = await request(SERVER_META_PATH, { signal });
  const parsed = serverMetaSchema.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({ kind: 'invalid-response', status: 200, error: 'Invalid Response', message: 'Unexpected server information.' });
  }
  return parsed.data;
}
