/**
 * The platform's documented operations on products beyond the create (platform-operations.md): the list,
 * `GET /ecommerce/products`; one product, `GET /ecommerce/products/{id}`; and its update,
 * `PUT /ecommerce/products/{id}`. What their documentation leaves open is decided here, once, for the
 * server's allowlist, the sandbox and the browser:
 *
 * - A product's id, and each attribute's and option's, is a platform id: digits, no leading zero.
 * - The list's query: `per_page` (1 to 500), `page`, `sort_type` (PRODUCT_LIST_SORT_TYPES), `sort_order`
 *   and `properties` (a comma list of the record's top-level keys to return; empty or absent for all).
 *   The list's envelope is the site's list envelope (`sites[].lists.envelope`, as for cases).
 * - The record as read: the create body's fields, with `id` on the product, on each attribute and on each
 *   option, and the platform's own `created_at` and `updated_at` (RECORD_META_KEYS) on any of them. A
 *   profile names the id's key and the options' key where a platform writes them otherwise
 *   (`sites[].products.record`); `readProductRecord` turns such a record into this one shape, or says why
 *   it cannot.
 * - The update's body: a create's fields, `name` and `enabled` required (the documentation's words), and
 *   `id` on the attributes and options that exist (without one, an item is created). Partial: what a PUT
 *   leaves out is kept. An empty string clears an optional field (a price, a date, a custom field).
 *   Every attribute and option sent carries its `name`, so a body says what it changes in words.
 * - No silent overwrite: the platform offers no version or ETag, so an update carries `If-Match` with the
 *   fingerprint of the product as the person read it (`productFingerprint`). The server reads the product
 *   again just before it sends the update, and refuses it (412) when the fingerprint differs: someone
 *   changed the product since. An update without it is refused (428).
 *
 * Browser-safe: no React, DOM or Node beyond the Web Crypto API that both have.
 */
import * as z from 'zod/mini';
import type { ErrorDetail } from './site-api';
import { isJsonObject } from './site-api-basics';
import { positiveInteger, readQueryParameters } from './query-parameters';
import {
  wireAttributeOptionSchema,
  wireAttributeSchema,
  wireProductSchema,
  type WireAttribute,
  type WireAttributeOption,
  type WireProduct,
} from './site-api';

/** The list's path, and one product's, under the base address. */
export const PRODUCTS_PATH = '/ecommerce/products';
export const productPath = (id: string) => `${PRODUCTS_PATH}/${encodeURIComponent(id)}`;

/** A platform id: digits without a leading zero, at most 18 (beyond 2^53, so always kept as text). */
export const PLATFORM_ID_PATTERN = /^[1-9]\d{0,17}$/;

export function productIdViolations(id: string): ErrorDetail[] {
  return PLATFORM_ID_PATTERN.test(id)
    ? []
    : [{ field: 'id', message: 'The product identifier must be a platform id: digits, without a leading zero (e.g. "1042")' }];
}

// ---------------------------------------------------------------------------------------------------------
// The list

export const PRODUCT_LIST_MAX_PER_PAGE = 500;
export const PRODUCT_LIST_MAX_PAGE = 1_000_000;
/** What a list may be sorted by: the record's own dates and id, and the fields a catalogue shows. */
export const PRODUCT_LIST_SORT_TYPES = ['created_at', 'updated_at', 'id', 'name', 'slug', 'release_date', 'expiry_date'] as const;
export type ProductListSortType = (typeof PRODUCT_LIST_SORT_TYPES)[number];
/** The platform's own keys on every record, which are read and never sent. */
export const RECORD_META_KEYS = ['id', 'created_at', 'updated_at'] as const;
/** A `properties` entry: a top-level key of the record (a wire key of the product, or one of its meta keys). */
const PROPERTY_KEY = /^[A-Za-z_][A-Za-z0-9_/]{0,127}$/;
export const PRODUCT_LIST_MAX_PROPERTIES = 60;

export interface ProductListQuery {
  per_page?: number;
  page?: number;
  sort_type?: ProductListSortType;
  sort_order?: 'asc' | 'desc';
  /** The record's keys to return; absent for all. */
  properties?: string[];
}

export const PRODUCT_LIST_PARAMETERS = ['per_page', 'page', 'sort_type', 'sort_order', 'properties'] as const;

export type ProductListQueryCheck = { ok: true; query: ProductListQuery; search: string } | { ok: false; details: ErrorDetail[] };

/**
 * Checks a product list's raw query (without the `?`, still encoded): every parameter named, each at most
 * once, each value well formed. What goes on is rebuilt from what was checked.
 */
export function checkProductListQuery(rawQuery: string): ProductListQueryCheck {
  const { values, details } = readQueryParameters(rawQuery, PRODUCT_LIST_PARAMETERS);
  const query: ProductListQuery = {};
  const perPage = values.get('per_page');
  if (perPage !== undefined) {
    const read = positiveInteger(perPage, PRODUCT_LIST_MAX_PER_PAGE);
    if (read !== undefined) query.per_page = read;
    else details.push({ field: 'per_page', message: `must be a whole number from 1 to ${PRODUCT_LIST_MAX_PER_PAGE}` });
  }
  const page = values.get('page');
  if (page !== undefined) {
    const read = positiveInteger(page, PRODUCT_LIST_MAX_PAGE);
    if (read !== undefined) query.page = read;
    else details.push({ field: 'page', message: `must be a whole number from 1 to ${PRODUCT_LIST_MAX_PAGE}` });
  }
  const sortType = values.get('sort_type');
  if (sortType !== undefined) {
    const known = PRODUCT_LIST_SORT_TYPES.find((type) => type === sortType);
    if (known) query.sort_type = known;
    else details.push({ field: 'sort_type', message: `must be one of ${PRODUCT_LIST_SORT_TYPES.join(', ')}` });
  }
  const sortOrder = values.get('sort_order');
  if (sortOrder !== undefined) {
    if (sortOrder === 'asc' || sortOrder === 'desc') query.sort_order = sortOrder;
    else details.push({ field: 'sort_order', message: 'must be asc or desc' });
  }
  const properties = values.get('properties');
  if (properties !== undefined && properties !== '') {
    const keys = properties.split(',');
    if (keys.length > PRODUCT_LIST_MAX_PROPERTIES) {
      details.push({ field: 'properties', message: `names more than ${PRODUCT_LIST_MAX_PROPERTIES} fields` });
    } else {
      const bad = keys.find((key) => !PROPERTY_KEY.test(key));
      if (bad !== undefined)
        details.push({ field: 'properties', message: `has ${JSON.stringify(bad.slice(0, 70))}, which is not a field name` });
      else if (new Set(keys).size !== keys.length) details.push({ field: 'properties', message: 'names a field twice' });
      else query.properties = keys;
    }
  }
  if (details.length > 0) return { ok: false, details };
  return { ok: true, query, search: productListSearch(query) };
}

/** The query string of `query` as sent (`?per_page=50&page=2&properties=name,slug`), '' for none. */
export function productListSearch(query: ProductListQuery): string {
  const sent: string[] = [];
  for (const name of PRODUCT_LIST_PARAMETERS) {
    const value = query[name];
    if (value === undefined) continue;
    // The commas of `properties` go as they are: the documentation's example is `name,slug,enabled`.
    sent.push(`${name}=${Array.isArray(value) ? value.map(encodeURIComponent).join(',') : encodeURIComponent(String(value))}`);
  }
  return sent.length > 0 ? `?${sent.join('&')}` : '';
}

// ---------------------------------------------------------------------------------------------------------
// The record, and the update's body

const platformId = z.string().check(z.regex(PLATFORM_ID_PATTERN, 'must be a platform id: digits, without a leading zero'));

/** An option as read, and as an update sends it: the create's fields and its id (none for a new option). */
export const wireOptionWithIdSchema = z.strictObject({ ...wireAttributeOptionSchema.shape, id: z.optional(platformId) });
export const wireAttributeWithIdSchema = z.strictObject({
  ...wireAttributeSchema.shape,
  id: z.optional(platformId),
  items: z.optional(z.array(wireOptionWithIdSchema)),
});
/** The body of `PUT /ecommerce/products/{id}`: a create's fields, with ids on the attributes and options that exist. */
export const wireProductUpdateSchema = z.strictObject({
  ...wireProductSchema.shape,
  attributes: z.optional(z.array(wireAttributeWithIdSchema)),
});

export type WireOptionWithId = WireAttributeOption & { id?: string };
export type WireAttributeWithId = Omit<WireAttribute, 'items'> & { id?: string; items?: WireOptionWithId[] };
export type WireProductUpdate = Omit<WireProduct, 'attributes'> & { attributes?: WireAttributeWithId[] };

/** The platform's own keys of a record, on the product, an attribute or an option. */
export interface RecordMeta {
  id: string;
  created_at?: string;
  updated_at?: string;
}
export type OptionRecord = WireAttributeOption & RecordMeta;
export type AttributeRecord = Omit<WireAttribute, 'items'> & RecordMeta & { items?: OptionRecord[] };
/** A product as read from the platform, in the one shape (ids as `id`, options under `items`). */
export type ProductRecord = Omit<WireProduct, 'attributes'> & RecordMeta & { attributes?: AttributeRecord[] };

/** Where a platform writes a record's ids and its options (`sites[].products.record`); the sandbox's by default. */
export interface ProductRecordShape {
  /** The key of the id, on the product, its attributes and its options. */
  id: string;
  /** The key of an attribute's options. */
  options: string;
}
export const DEFAULT_PRODUCT_RECORD_SHAPE: ProductRecordShape = { id: 'id', options: 'items' };

/** A field of a record that the editor does not know: where it is (`attributes[0].items[2].colour`). */
export interface UnknownField {
  path: string;
  value: unknown;
}

export type ProductRecordReading = { ok: true; record: ProductRecord; unknown: UnknownField[] } | { ok: false; problem: string };

const KNOWN = {
  product: new Set([...Object.keys(wireProductSchema.shape), ...RECORD_META_KEYS]),
  attribute: new Set([...Object.keys(wireAttributeSchema.shape), ...RECORD_META_KEYS]),
  option: new Set([...Object.keys(wireAttributeOptionSchema.shape), ...RECORD_META_KEYS]),
};

/**
 * Reads a product as the platform answered it, through the site's record shape: the record in the one
 * shape, and the fields the editor does not know (kept out of the record, so nothing is sent for them;
 * an editor that finds any opens the product read-only). Null values are read as absent. Refuses what
 * is not a product: not an object, no id, an id that is not a platform id, attributes that are not a
 * list of objects.
 */
export function readProductRecord(json: unknown, shape: ProductRecordShape = DEFAULT_PRODUCT_RECORD_SHAPE): ProductRecordReading {
  const unknown: UnknownField[] = [];
  const problem = { text: '' };
  const idOf = (object: Record<string, unknown>, where: string): string | null => {
    const id = object[shape.id];
    const text = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
    if (typeof text === 'string' && PLATFORM_ID_PATTERN.test(text)) return text;
    problem.text = id === undefined ? `${where} has no "${shape.id}"` : `${where}'s "${shape.id}" is not a platform id`;
    return null;
  };
  const fields = (object: Record<string, unknown>, known: Set<string>, path: string, skip: readonly string[]) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (skip.includes(key) || value === null) continue;
      if (known.has(key)) out[key] = value;
      else unknown.push({ path: path === '' ? key : `${path}.${key}`, value });
    }
    return out;
  };
  if (!isJsonObject(json)) return { ok: false, problem: 'the answer is not a JSON object' };
  const id = idOf(json, 'the product');
  if (id === null) return { ok: false, problem: problem.text };
  const record = { ...fields(json, KNOWN.product, '', [shape.id, 'attributes']), id } as ProductRecord;
  const attributes = json.attributes;
  if (attributes !== undefined && attributes !== null) {
    if (!Array.isArray(attributes)) return { ok: false, problem: '"attributes" is not a list' };
    const read: AttributeRecord[] = [];
    for (const [a, attribute] of attributes.entries()) {
      if (!isJsonObject(attribute)) return { ok: false, problem: `attribute ${a + 1} is not a JSON object` };
      const attributeId = idOf(attribute, `attribute ${a + 1}`);
      if (attributeId === null) return { ok: false, problem: problem.text };
      const out = {
        ...fields(attribute, KNOWN.attribute, `attributes[${a}]`, [shape.id, shape.options, 'items']),
        id: attributeId,
      } as AttributeRecord;
      const options = attribute[shape.options];
      if (options !== undefined && options !== null) {
        if (!Array.isArray(options)) return { ok: false, problem: `attribute ${a + 1}'s "${shape.options}" is not a list` };
        out.items = [];
        for (const [o, option] of options.entries()) {
          if (!isJsonObject(option)) return { ok: false, problem: `option ${o + 1} of attribute ${a + 1} is not a JSON object` };
          const optionId = idOf(option, `option ${o + 1} of attribute ${a + 1}`);
          if (optionId === null) return { ok: false, problem: problem.text };
          const item = { ...fields(option, KNOWN.option, `attributes[${a}].items[${o}]`, [shape.id]), id: optionId } as OptionRecord;
          out.items.push(item);
        }
      }
      if (shape.options !== 'items' && attribute.items !== undefined)
        unknown.push({ path: `attributes[${a}].items`, value: attribute.items });
      read.push(out);
    }
    record.attributes = read;
  }
  // Known keys with a value of the wrong type are as unknown as an unknown key: the editor cannot show them.
  const { id: _id, created_at: _c, updated_at: _u, ...body } = record;
  const checked = wireProductUpdateSchema.safeParse(stripMeta(body));
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      unknown.push({
        path: issue.path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
          .join('')
          .replace(/^\./, ''),
        value: issue.message,
      });
    }
  }
  return { ok: true, record, unknown };
}

/** A record's fields without the platform's own dates (ids kept): what an update can say. */
function stripMeta(record: Record<string, unknown>): Record<string, unknown> {
  const { created_at: _c, updated_at: _u, attributes, ...rest } = record;
  if (!Array.isArray(attributes)) return rest;
  return {
    ...rest,
    attributes: (attributes as Record<string, unknown>[]).map((attribute) => {
      const { created_at: _ac, updated_at: _au, items, ...fields } = attribute;
      if (!Array.isArray(items)) return fields;
      return {
        ...fields,
        items: (items as Record<string, unknown>[]).map(({ created_at: _oc, updated_at: _ou, ...option }) => option),
      };
    }),
  };
}

/** An update body in the site's record shape: `id` and `items` renamed where the profile says so. */
export function updateBodyForShape(
  body: WireProductUpdate,
  shape: ProductRecordShape = DEFAULT_PRODUCT_RECORD_SHAPE,
): Record<string, unknown> {
  if (shape.id === 'id' && shape.options === 'items') return body;
  const rename = (object: Record<string, unknown>) => {
    const { id, ...rest } = object;
    return id === undefined ? rest : { [shape.id]: id, ...rest };
  };
  return {
    ...body,
    ...(body.attributes
      ? {
          attributes: body.attributes.map((attribute) => {
            const { items, ...rest } = rename(attribute);
            return items === undefined ? rest : { ...rest, [shape.options]: (items as Record<string, unknown>[]).map(rename) };
          }),
        }
      : {}),
  };
}

/** An update's body in the site's record shape (`updateBodyForShape`'s output) back in the one shape: `id` and `items`. */
export function updateBodyFromShape(json: Record<string, unknown>, shape: ProductRecordShape): Record<string, unknown> {
  if (shape.id === 'id' && shape.options === 'items') return json;
  const rename = (object: Record<string, unknown>) => {
    const { [shape.id]: id, ...rest } = object;
    return id === undefined ? rest : { ...rest, id };
  };
  const { attributes } = json;
  if (!Array.isArray(attributes)) return json;
  return {
    ...json,
    attributes: attributes.map((attribute: unknown) => {
      if (!isJsonObject(attribute)) return attribute;
      const { [shape.options]: options, ...rest } = rename(attribute);
      return options === undefined
        ? rest
        : {
            ...rest,
            items: Array.isArray(options) ? options.map((option: unknown) => (isJsonObject(option) ? rename(option) : option)) : options,
          };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// No silent overwrite

/** The header an update carries: the fingerprint of the product as read, `"sha256-<hex>"`. */
export const PRODUCT_BASE_HEADER = 'if-match';

/** JSON with every object's keys sorted: the same text for the same record, whatever order its keys came in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The fingerprint of a product as the platform answered it (the parsed answer, in whatever shape): SHA-256
 * of its canonical JSON, as `"sha256-<hex>"` (an entity tag's quotes included). Any change to any field,
 * the platform's `updated_at` included, changes it.
 */
export async function productFingerprint(json: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalJson(json));
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `"sha256-${hex}"`;
}

/** The header a revert carries: the activity record's number of the update it reverts (checked by the server). */
export const REVERT_OF_HEADER = 'x-revert-of';

export const FINGERPRINT_PATTERN = /^"sha256-[0-9a-f]{64}"$/;

// ---------------------------------------------------------------------------------------------------------
// The update's rules

/** Fields an update may clear with "" (an optional value); `name`, `enabled` and `slug` cannot be cleared. */
const UNCLEARABLE = new Set(['name', 'enabled', 'slug']);

/**
 * The rules of an update, the create's own (src/contract/rules.ts) over the same registry of fields, plus:
 * `name` and `enabled` present on the product; ids, where given, platform ids, and no id twice; "" on an
 * optional field means "clear it" and is not held to the field's rule. The details' paths are the body's.
 */
export function validateProductUpdate(
  body: unknown,
  validateCreate: (body: unknown) => { ok: true } | { ok: false; status: 400 | 422; details: ErrorDetail[]; total: number },
): { ok: true; product: WireProductUpdate } | { ok: false; status: 400 | 422; details: ErrorDetail[]; total: number } {
  if (!isJsonObject(body)) return { ok: false, status: 400, details: [{ field: 'body', message: 'must be a JSON object' }], total: 1 };
  const shape = wireProductUpdateSchema.safeParse(body);
  if (!shape.success) {
    // The create's check words the shape's problems; ids aside, the shapes are the same.
    const withoutIds = dropIdsAndClears(body);
    const create = validateCreate(withoutIds);
    if (!create.ok && create.status === 400) return create;
    const details = shape.error.issues.map((issue) => ({
      field: issue.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('') || 'body',
      message: issue.message,
    }));
    return { ok: false, status: 400, details, total: details.length };
  }
  const missing: ErrorDetail[] = [];
  if (body.name === undefined) missing.push({ field: 'name', message: 'is required on an update' });
  if (body.enabled === undefined) missing.push({ field: 'enabled', message: 'is required on an update' });
  const seen = new Set<string>();
  shape.data.attributes?.forEach((attribute, a) => {
    const ids = [
      { id: attribute.id, field: `attributes[${a}].id` },
      ...(attribute.items ?? []).map((item, o) => ({ id: item.id, field: `attributes[${a}].items[${o}].id` })),
    ];
    for (const { id, field } of ids) {
      if (id === undefined) continue;
      if (seen.has(id)) missing.push({ field, message: `names ${id}, which is named earlier in this body` });
      seen.add(id);
    }
  });
  const create = validateCreate(dropIdsAndClears(body));
  // A missing name is also the create's "Name is required": said once, as the update's.
  const said = new Set(missing.map((detail) => detail.field));
  const createDetails = create.ok ? [] : create.details.filter((detail) => !said.has(detail.field));
  const repeated = create.ok ? 0 : create.details.length - createDetails.length;
  const details = [...missing, ...createDetails];
  if (details.length > 0)
    return {
      ok: false,
      status: create.ok ? 422 : create.status,
      details,
      total: missing.length + (create.ok ? 0 : create.total - repeated),
    };
  return { ok: true, product: shape.data };
}

/** A body as a create would read it: ids left out, and the clearing "" of optional fields left out. */
function dropIdsAndClears(body: Record<string, unknown>): Record<string, unknown> {
  const clean = (object: Record<string, unknown>, keepName: boolean) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (key === 'id') continue;
      if (value === '' && !(UNCLEARABLE.has(key) || (keepName && key === 'name'))) continue;
      out[key] = value;
    }
    return out;
  };
  const out = clean(body, true);
  if (Array.isArray(body.attributes)) {
    out.attributes = body.attributes.map((attribute: unknown) => {
      if (!isJsonObject(attribute)) return attribute;
      const cleaned = clean(attribute, true);
      if (Array.isArray(attribute.items))
        cleaned.items = attribute.items.map((item: unknown) => (isJsonObject(item) ? clean(item, true) : item));
      return cleaned;
    });
  }
  return out;
}
