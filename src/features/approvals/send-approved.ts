/**
 * Sending an approved change: the write it holds, exactly as it was approved. The stored body string is the
 * request's body as it is (never parsed and written again: the server compares the SHA-256 of the bytes it
 * receives with the change's hash, and a re-serialised body would differ in a space or a number's digits),
 * with the change's id in APPROVED_CHANGE_HEADER, so the server lets it through once, and only once.
 *
 * An import's rows are sent by the import's own runner (each row's body is its item's), not here.
 */
import { APPROVED_CHANGE_HEADER, type Change } from '@/contract/approvals';
import { PRODUCT_BASE_HEADER, productPath, REVERT_OF_HEADER } from '@/contract/products';
import { CREATE_PRODUCT_PATH, isJsonObject } from '@/contract/site-api-basics';
import { siteApiBasePath } from '@/contract/site-info';
import { ApiError, apiErrors } from '@/lib/api-error';
import { explainFailure, type FailureText } from '@/lib/api-error-class';
import { sendAnswer, type Answer } from '@/lib/api-client';
import { explainWriteFailure } from '@/lib/write-meaning';
import { jsonOf } from '@/features/products/product-api';

/** What of a change its sending needs. */
export type SendableChange = Pick<Change, 'id' | 'site' | 'kind' | 'body' | 'product' | 'base' | 'revertOf'>;

/** The request that sends `change`: its address, method, headers and the body as stored. */
export function approvedRequest(change: SendableChange): { path: string; init: RequestInit } {
  if (change.body === null) throw new Error(`Change ${change.id} holds no body to send (an import's rows are sent by the import).`);
  const base = siteApiBasePath(change.site);
  const headers: Record<string, string> = { 'content-type': 'application/json', [APPROVED_CHANGE_HEADER]: change.id };
  switch (change.kind) {
    case 'create':
      return { path: base + CREATE_PRODUCT_PATH, init: { method: 'POST', headers, body: change.body } };
    case 'update': {
      if (change.product === null || change.base === null) throw new Error(`Change ${change.id} does not name the product it updates.`);
      headers[PRODUCT_BASE_HEADER] = change.base;
      if (change.revertOf !== null) headers[REVERT_OF_HEADER] = String(change.revertOf);
      return { path: base + productPath(change.product), init: { method: 'PUT', headers, body: change.body } };
    }
    case 'import':
      throw new Error(`Change ${change.id} is an import: its rows are sent by the import, each with its own body.`);
  }
}

/** The answer's JSON object; an `ApiError` for an error status or an answer that is not a JSON object. */
function recordOf(answer: Answer): Record<string, unknown> {
  const json = jsonOf(answer);
  if (!isJsonObject(json))
    throw apiErrors.notJson(answer.status, answer.platformStatus, null, 'The answer to the write is not a JSON object.');
  return json;
}

/**
 * Sends an approved create or update, its stored body exactly: the platform's answer (a create may answer
 * `{}`), or an `ApiError` classified as any write's (explain it with `explainSentFailure`).
 */
export async function sendApprovedChange(change: SendableChange, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const { path, init } = approvedRequest(change);
  return recordOf(await sendAnswer(path, init, signal));
}

/** Whether the failure is our server's 412: the product changed on the platform since the change was asked for. */
export const isReturned = (error: unknown) => error instanceof ApiError && error.status === 412;

/**
 * A failed send in words, as the editor words a failed create or correction (write-meaning.ts); a 412 says
 * the change went back to its author, since the product it would overwrite changed since it was asked for.
 */
export function explainSentFailure(error: unknown, kind: Change['kind']): FailureText {
  if (isReturned(error)) {
    return explainFailure(error, {
      kind: 'other',
      textOf: () => ({
        title: 'Not sent: the product changed since',
        message:
          'The product changed on the platform since this change was asked for, so nothing was sent: it went back to its author, who can edit it and ask again.',
      }),
    });
  }
  return explainWriteFailure(error, kind === 'update' ? 'update' : 'create');
}
