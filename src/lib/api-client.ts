/**
 * The fetch layer: same-origin calls to our server, which adds the platform's credentials.
 * It only returns or throws an `ApiError` that carries its classification (`api-error.ts`); what a person
 * reads is decided by the one translator (`api-error-class.ts`) for the feature that called it.
 */
import { PLATFORM_STATUS_HEADER } from '@/contract/server-meta';
import type { FormCase, WireProduct } from '@/contract/site-api';
import { CREATE_PRODUCT_PATH, formCasePath, isJsonObject } from '@/contract/site-api-basics';
import { readMe, type Me } from '@/contract/access';
import type { AnswerReader } from '@/contract/answer-reader';
import { readSiteInfo, SITES_PATH, type SiteInfo } from '@/contract/site-info';
import { apiErrors } from './api-error';
import { readErrorBody } from './error-body';
import { apiBasePath } from './site-scope';

/** The browser's own limit; our server gives up on the platform sooner (15 s by default) and answers 504. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface Answer {
  status: number;
  ok: boolean;
  platformStatus: number | null;
  retryAfter: string | null;
  text: string;
}

function platformStatusOf(response: Response): number | null {
  const value = Number(response.headers.get(PLATFORM_STATUS_HEADER));
  return Number.isInteger(value) && value >= 100 && value <= 599 ? value : null;
}

/** Sends the request and reads the whole answer as text; throws for no answer, a timeout or a cut-off. */
async function send(path: string, init: RequestInit = {}, signal?: AbortSignal): Promise<Answer> {
  signal?.throwIfAborted();
  // A timer of our own rather than AbortSignal.timeout: the limit then covers reading the body too, and
  // tests can move the clock.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onCallerAbort, { once: true });

  const fail = (cause: unknown, response?: Response): never => {
    // A cancellation by the caller is not a failure to report: pass it on untouched.
    if (signal?.aborted) throw signal.reason ?? cause;
    if (timedOut) throw apiErrors.noAnswerInTime(REQUEST_TIMEOUT_MS / 1000);
    if (response) throw apiErrors.cutOff(response.status, platformStatusOf(response));
    throw apiErrors.noAnswer();
  };

  try {
    let response: Response;
    try {
      response = await fetch(path, { ...init, signal: controller.signal, headers: { accept: 'application/json', ...init.headers } });
    } catch (cause) {
      return fail(cause);
    }
    try {
      const text = await response.text();
      return {
        status: response.status,
        ok: response.ok,
        platformStatus: platformStatusOf(response),
        retryAfter: response.headers.get('retry-after'),
        text,
      };
    } catch (cause) {
      return fail(cause, response);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** The answer's JSON, or an `ApiError` for an error status or an answer that is not JSON. */
function readJson(answer: Answer, parse: (text: string) => unknown = JSON.parse): unknown {
  const { status, platformStatus, retryAfter } = answer;
  let json: unknown;
  try {
    json = parse(answer.text);
  } catch {
    throw apiErrors.notJson(status, platformStatus, retryAfter);
  }
  if (!answer.ok) throw apiErrors.answered(status, platformStatus, readErrorBody(json), retryAfter);
  return json;
}

function expectObject(json: unknown, answer: Answer, what: string): Record<string, unknown> {
  if (!isJsonObject(json)) throw apiErrors.notJson(answer.status, answer.platformStatus, null, `${what} is not a JSON object.`);
  return json;
}

/** A form case as the platform sent it: the record, and the text it came as. */
export interface FormCaseAnswer {
  /** Numbers a JavaScript number would change are `ExactNumber`s (see `exact-json.ts`). */
  record: FormCase;
  /** The platform's own JSON text, unchanged: what staff see as raw JSON, copy and download. */
  text: string;
}

/**
 * The exact parser (lossless-json), loaded with the first lookup rather than with the first page. A
 * script that cannot be fetched from our server is a network failure like any other.
 */
async function exactParser(): Promise<(text: string) => unknown> {
  try {
    return (await import('./exact-json')).parseExactJson;
  } catch {
    throw apiErrors.noAnswer('A script of this page could not be loaded from the server.');
  }
}

/** GET /forms/{form}/cases/{id}: any JSON object, including `{}`, with every number exact. */
export async function getFormCase(form: string, id: string, signal?: AbortSignal): Promise<FormCaseAnswer> {
  // The parser loads beside the request, so the first lookup waits for the slower of the two only.
  const [answer, parse] = await Promise.all([send(apiBasePath() + formCasePath(form, id), {}, signal), exactParser()]);
  const record = expectObject(readJson(answer, parse), answer, 'The case');
  return { record, text: answer.text };
}

/** POST /ecommerce/products/create: the platform may answer with the record or with `{}`. */
export async function createProduct(
  body: WireProduct,
  signal?: AbortSignal,
  /** An import's product and run (src/contract/imports.ts): our server checks them and keeps them from the platform. */
  extraHeaders: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const answer = await send(
    apiBasePath() + CREATE_PRODUCT_PATH,
    { method: 'POST', headers: { 'content-type': 'application/json', ...extraHeaders }, body: JSON.stringify(body) },
    signal,
  );
  return expectObject(readJson(answer), answer, 'The answer to create');
}

/** What `GET /api/sites` answers: the sites the person may use, and who they are. */
export interface SitesAnswer {
  sites: SiteInfo[];
  me: Me;
}

/** The sites this server works on that the person may use (GET /api/sites), in the profile's order; never a key. */
export async function getSites(signal?: AbortSignal): Promise<SitesAnswer> {
  const answer = await send(SITES_PATH, {}, signal);
  const json = readJson(answer) as { sites?: unknown; me?: unknown } | null;
  const sites = Array.isArray(json?.sites) ? json.sites.map(readSiteInfo) : [];
  const me = readMe(json?.me);
  if (!me || sites.some((site) => site === null)) {
    throw apiErrors.notJson(answer.status, answer.platformStatus, null, 'Unexpected list of sites.');
  }
  // The reader checks the shape the browser relies on; labels and references are the profile's, checked at start.
  return { sites: sites as SiteInfo[], me };
}

interface OwnCall {
  method?: string;
  body?: unknown;
}

/**
 * A call to one of our own endpoints (signing in, people, your account, the activity record): JSON in, and
 * out the answer read by `answer`, the contract's schema of it (an `ApiError` classified `unreadable` when
 * it is not that shape), or without one, nothing or what came; an `ApiError` for an error status,
 * classified like any other.
 */
export async function callOwnApi<T>(path: string, init: OwnCall & { answer: AnswerReader<T> }, signal?: AbortSignal): Promise<T>;
export async function callOwnApi(path: string, init?: OwnCall, signal?: AbortSignal): Promise<unknown>;
export async function callOwnApi<T>(
  path: string,
  init: OwnCall & { answer?: AnswerReader<T> } = {},
  signal?: AbortSignal,
): Promise<T | unknown> {
  const answer = await send(
    path,
    {
      method: init.method ?? 'GET',
      ...(init.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(init.body) }),
    },
    signal,
  );
  const json = answer.ok && answer.text === '' ? undefined : readJson(answer);
  if (!init.answer) return json;
  const read = init.answer.safeParse(json);
  if (!read.success)
    throw apiErrors.notJson(answer.status, answer.platformStatus, null, 'The server’s answer is not the shape this page expects.');
  return read.data;
}

/**
 * GET `path` (a whole address: `/api/...`), the answer unread (an `ApiError` only for no answer, none in
 * time or one cut off): for a reader of its own that lives in a chunk of its own (the list of a form's
 * cases in the inbox, the Settings page's check of a profile's list envelope).
 */
export const getAnswer = (path: string, signal?: AbortSignal): Promise<Answer> => send(path, {}, signal);

/** Any call to `path` (method, headers, body in `init`), the answer unread: for a writer of its own in a chunk of its own (a product's update). */
export const sendAnswer = (path: string, init: RequestInit, signal?: AbortSignal): Promise<Answer> => send(path, init, signal);
