/**
 * The part of the wire contract that needs no zod: the base address and the paths of the two
 * operations, the currencies, and the status phrases. Apart from `site-api.ts` (which re-exports it, as
 * part of the contract) so that the first page, which loads no zod, can use them.
 */

export const API_BASE_PATH = '/api/site/v2';

/**
 * A JSON object: not null, not an array, and a plain object (so not an exact number, which the exact
 * parser gives as an object holding its text). What every reader of a body asks first.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

export const CURRENCIES = ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** Status phrases of the spec, plus the ones our own server answers with (413, 502, 504). */
export const STATUS_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  504: 'Gateway Timeout',
};

/** Paths of the two operations, relative to the base address. */
export const formCasePath = (form: string, id: string) => `/forms/${encodeURIComponent(form)}/cases/${encodeURIComponent(id)}`;
export const CREATE_PRODUCT_PATH = '/ecommerce/products/create';
