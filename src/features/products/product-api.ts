/**
 * The products' reads and update, for the catalogue, the editor, a revert and an import: the platform's
 * list (`GET /ecommerce/products`, read through the site's list envelope), one product (`GET
 * /ecommerce/products/{id}`, read through the site's record shape, with its fingerprint), and the update
 * (`PUT`, with that fingerprint in If-Match: src/contract/products.ts).
 *
 * What the platform answers is not published in full, so an answer that is not the envelope or not a
 * product is returned as `unreadable` with the raw text, for the page to show, never as an empty list.
 */
import { readListEnvelope, DEFAULT_LIST_ENVELOPE, type ListEnvelope, type ListEnvelopeContent } from '@/contract/case-list';
import {
  DEFAULT_PRODUCT_RECORD_SHAPE,
  PRODUCT_BASE_HEADER,
  productFingerprint,
  productListSearch,
  productPath,
  PRODUCTS_PATH,
  readProductRecord,
  updateBodyForShape,
  type ProductListQuery,
  type ProductRecord,
  type ProductRecordShape,
  type UnknownField,
  type WireProductUpdate,
} from '@/contract/products';
import type { SiteInfo } from '@/contract/site-info';
import { isJsonObject } from '@/contract/site-api-basics';
import { apiErrors } from '@/lib/api-error';
import { getAnswer, sendAnswer, type Answer } from '@/lib/api-client';
import { readErrorBody } from '@/lib/error-body';
import { apiBasePath } from '@/lib/site-scope';

/** How a site's platform writes its lists and products (its profile), the sandbox's by default. */
export interface ProductReading {
  envelope: ListEnvelope;
  shape: ProductRecordShape;
}

export function productReadingOf(site: Pick<SiteInfo, 'lists' | 'products'> | undefined): ProductReading {
  return {
    envelope: site?.lists?.envelope ?? DEFAULT_LIST_ENVELOPE,
    shape: { ...DEFAULT_PRODUCT_RECORD_SHAPE, ...site?.products?.record },
  };
}

/** The parsed JSON of an answer; an `ApiError` for an error status (the platform's 404 aside) or text that is not JSON. */
export function jsonOf(answer: Answer): unknown {
  let json: unknown;
  try {
    json = JSON.parse(answer.text);
  } catch {
    throw apiErrors.notJson(answer.status, answer.platformStatus, answer.retryAfter);
  }
  if (!answer.ok) throw apiErrors.answered(answer.status, answer.platformStatus, readErrorBody(json), answer.retryAfter);
  return json;
}

export type ProductListPage =
  | { kind: 'page'; content: ListEnvelopeContent }
  /** The platform's 404: the site has no products (yet). */
  | { kind: 'empty' }
  /** An answer that is not the site's envelope: why, and the text to show. */
  | { kind: 'unreadable'; problem: string; text: string };

/** One page of the site's products. */
export async function listProducts(query: ProductListQuery, reading: ProductReading, signal?: AbortSignal): Promise<ProductListPage> {
  const answer = await getAnswer(apiBasePath() + PRODUCTS_PATH + productListSearch(query), signal);
  // Only the platform's own 404 means "no products"; our server's 404 is a failure like any other.
  if (answer.status === 404 && answer.platformStatus === 404) return { kind: 'empty' };
  const json = jsonOf(answer);
  const read = readListEnvelope(reading.envelope, json);
  return read.ok ? { kind: 'page', content: read.content } : { kind: 'unreadable', problem: read.problem, text: answer.text };
}

export type ProductRead =
  | {
      kind: 'read';
      record: ProductRecord;
      /** Fields the editor does not know: a product with any opens read-only. */
      unknown: UnknownField[];
      /** What an update of this product carries in If-Match. */
      fingerprint: string;
      /** The platform's own text. */
      text: string;
    }
  | { kind: 'unreadable'; problem: string; text: string };

/** One product, as the platform has it now. A 404 throws (an `ApiError`): the product is not there. */
export async function getProduct(id: string, reading: ProductReading, signal?: AbortSignal): Promise<ProductRead> {
  const answer = await getAnswer(apiBasePath() + productPath(id), signal);
  const json = jsonOf(answer);
  const read = readProductRecord(json, reading.shape);
  if (!read.ok) return { kind: 'unreadable', problem: read.problem, text: answer.text };
  return { kind: 'read', record: read.record, unknown: read.unknown, fingerprint: await productFingerprint(json), text: answer.text };
}

/**
 * Sends an update of product `id`, read with `fingerprint`: 412 (an `ApiError`) when it changed since.
 * `extraHeaders`: a revert's `x-revert-of`, an import's product and run.
 */
export async function updateProduct(
  id: string,
  body: WireProductUpdate,
  fingerprint: string,
  reading: ProductReading,
  signal?: AbortSignal,
  extraHeaders: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const answer = await sendAnswer(
    apiBasePath() + productPath(id),
    {
      method: 'PUT',
      headers: { 'content-type': 'application/json', [PRODUCT_BASE_HEADER]: fingerprint, ...extraHeaders },
      body: JSON.stringify(updateBodyForShape(body, reading.shape)),
    },
    signal,
  );
  const json = jsonOf(answer);
  if (!isJsonObject(json))
    throw apiErrors.notJson(answer.status, answer.platformStatus, null, 'The answer to the update is not a JSON object.');
  return json;
}
