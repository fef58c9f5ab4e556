/**
 * The validation rules of platform-notes, in one place: the sandbox answers with them and the editor
 * checks them before sending. 400 = not well formed (wrong JSON types, unknown fields); 422 = well formed
 * but semantically wrong. `details[].field` is a path into the request body, e.g.
 * `attributes[0].items[2].module_field_14/product_attribute_option/price/usd/1`.
 */
import type * as z from 'zod/mini';
import {
  OPTION_FIELD_KEYS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_KEYS,
  PRODUCT_FIELD_KEYS,
  PRODUCT_INVENTORY_KEYS,
  PRODUCT_PRICE_KEYS,
  wireProductSchema,
  type ErrorDetail,
  type WireAttribute,
  type WireAttributeOption,
  type WireProduct,
  type WireReference,
} from './site-api';
import { MAX_EPOCH_SECONDS } from './identifiers';
import { isJsonObject } from './site-api-basics';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const INTEGER_PATTERN = /^-?(0|[1-9]\d{0,8})$/;
/** A price is a whole number of minor units (cents) of at most 12 digits. */
export const MAX_MINOR_UNIT_DIGITS = 12;
export const MAX_MINOR_UNITS = 10 ** MAX_MINOR_UNIT_DIGITS - 1;
const MINOR_UNITS_PATTERN = new RegExp(`^(0|[1-9]\\d{0,${MAX_MINOR_UNIT_DIGITS - 1}})$`);
const COUNT_PATTERN = /^(0|[1-9]\d{0,8})$/;
const EPOCH_PATTERN = /^(0|[1-9]\d{0,11})$/;
const REFERENCE_ID_PATTERN = /^[1-9]\d{0,17}$/;
export const MAX_NAME_LENGTH = 255;
export const MAX_TEXT_LENGTH = 65535;

/** At most this many entries in `details`; a list that was cut says so in the message (platform-notes). */
export const MAX_ERROR_DETAILS = 100;
/**
 * Array limits, at the platform's scale (Shopify, for comparison, allows 2,048 variants per product). A body
 * over one of them is refused (422) before anything else in it is checked, so one request's work stays small.
 */
export const MAX_ATTRIBUTES = 100;
/** Options of all attributes of a product together (so also of any one attribute). */
export const MAX_OPTIONS = 2048;
/** Entries of category_array, and of secure_zone_array. */
export const MAX_REFERENCES = 250;

/** The sentence a cut `details` list adds to its message. */
export function cutNote(total: number, shown: number): string {
  return `Showing the first ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} problems.`;
}

/** The first MAX_ERROR_DETAILS details, how many there were, and the note for a message when some were cut. */
export function capDetails(details: readonly ErrorDetail[], total = details.length) {
  const shown = details.slice(0, MAX_ERROR_DETAILS);
  return { details: shown, total, note: cutNote(total, shown.length) };
}

/** Formats a path of keys and indexes as the spec's details field: `attributes[0].items[2].name`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

function describeType(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  if (typeof input === 'object') return 'an object';
  return `a ${typeof input}`;
}

function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    root,
  );
}

function addIssueDetails(c: Collector, issue: z.core.$ZodIssue, root: unknown) {
  if (issue.code === 'invalid_union') {
    // A reference is `{"id": "1"}` or `"1"`: an object is held to the object's shape, with its own paths.
    const input = valueAtPath(root, issue.path);
    const objectBranch = issue.errors[0];
    if (input !== null && typeof input === 'object' && !Array.isArray(input) && objectBranch) {
      for (const inner of objectBranch) addIssueDetails(c, { ...inner, path: [...issue.path, ...inner.path] }, root);
      return;
    }
    const field = formatFieldPath(issue.path);
    c.add(() => ({ field: field || 'body', message: `must be an object {"id": "…"} or an identifier string, not ${describeType(input)}` }));
    return;
  }
  if (issue.code === 'unrecognized_keys') {
    for (const key of issue.keys) {
      c.add(() => ({ field: formatFieldPath([...issue.path, key]), message: 'is not a field of this object in Site API v2' }));
    }
    return;
  }
  c.add(() => issueDetail(issue, root));
}

function issueDetail(issue: z.core.$ZodIssue, root: unknown): ErrorDetail {
  const field = formatFieldPath(issue.path);
  if (issue.code === 'invalid_type') {
    const input = valueAtPath(root, issue.path);
    const expected =
      issue.expected === 'string'
        ? 'a JSON string (every value is sent as a string)'
        : issue.expected === 'array'
          ? 'an array'
          : issue.expected === 'object'
            ? 'an object'
            : issue.expected;
    return { field: field || 'body', message: `must be ${expected}, not ${describeType(input)}` };
  }
  return { field: field || 'body', message: issue.message };
}

/**
 * A failed check: `details` holds at most MAX_ERROR_DETAILS entries, `total` says how many problems there
 * were (see cutNote).
 */
export type ProductCheck = { ok: true; product: WireProduct } | { ok: false; status: 400 | 422; details: ErrorDetail[]; total: number };

/**
 * Collects details: keeps the first MAX_ERROR_DETAILS, counts the rest without building them, so a body
 * with a problem in every one of its fields costs no more than reading it.
 */
class Collector {
  readonly details: ErrorDetail[] = [];
  total = 0;
  add(detail: ErrorDetail | (() => ErrorDetail)) {
    this.total += 1;
    if (this.details.length < MAX_ERROR_DETAILS) this.details.push(typeof detail === 'function' ? detail() : detail);
  }
  check(path: readonly PropertyKey[], value: string | undefined, ...checks: Check[]) {
    if (value === undefined) return;
    for (const c of checks) {
      const message = c(value);
      if (message) {
        this.add(() => ({ field: formatFieldPath(path), message }));
        return;
      }
    }
  }
}

/**
 * The array limits, checked on the raw body before anything else: an empty list of 349,000 attributes is
 * one problem, not 349,000.
 */
export function arrayLimitViolations(body: unknown): ErrorDetail[] {
  if (!isJsonObject(body)) return [];
  const details: ErrorDetail[] = [];
  const limit = (field: string, value: unknown, max: number, what: string) => {
    if (Array.isArray(value) && value.length > max) {
      details.push({
        field,
        message: `must list at most ${max.toLocaleString('en-US')} ${what}, not ${value.length.toLocaleString('en-US')}`,
      });
    }
  };
  limit('category_array', body.category_array, MAX_REFERENCES, 'categories');
  limit('secure_zone_array', body.secure_zone_array, MAX_REFERENCES, 'secure zones');
  const attributes = body.attributes;
  if (!Array.isArray(attributes)) return details;
  if (attributes.length > MAX_ATTRIBUTES) {
    limit('attributes', attributes, MAX_ATTRIBUTES, 'attributes');
    return details;
  }
  let options = 0;
  for (const attribute of attributes as unknown[]) {
    const items = isJsonObject(attribute) ? attribute.items : undefined;
    if (Array.isArray(items)) options += items.length;
  }
  if (options > MAX_OPTIONS) {
    details.push({
      field: 'attributes',
      message: `must hold at most ${MAX_OPTIONS.toLocaleString('en-US')} options in all, not ${options.toLocaleString('en-US')}`,
    });
  }
  return details;
}

/** The 400 layer: is the body a Product object with the right JSON types and only known fields? */
export function checkProductShape(body: unknown): ProductCheck {
  const parsed = wireProductSchema.safeParse(body);
  if (parsed.success) return { ok: true, product: parsed.data };
  const c = new Collector();
  for (const issue of parsed.error.issues) addIssueDetails(c, issue, body);
  return { ok: false, status: 400, details: c.details, total: c.total };
}

type Check = (value: string) => string | null;

const required =
  (label: string): Check =>
  (value) =>
    value.trim() === '' ? `${label} is required` : null;
const maxLength =
  (max: number): Check =>
  (value) =>
    value.length > max ? `must be at most ${max} characters` : null;
const booleanString: Check = (value) => (value === 'true' || value === 'false' ? null : 'must be "true" or "false"');
const integer: Check = (value) => (INTEGER_PATTERN.test(value) ? null : 'must be a whole number, e.g. "10"');
const minorUnits: Check = (value) =>
  MINOR_UNITS_PATTERN.test(value) ? null : 'must be a non-negative whole number of minor units (cents), e.g. "1999"';
const count: Check = (value) => (COUNT_PATTERN.test(value) ? null : 'must be a non-negative whole number');
const epochSeconds: Check = (value) =>
  EPOCH_PATTERN.test(value) && Number(value) <= MAX_EPOCH_SECONDS ? null : 'must be a date as Unix epoch seconds, e.g. "1767225600"';
const slug: Check = (value) =>
  SLUG_PATTERN.test(value) ? null : 'must be lower-case letters and digits in words joined by single hyphens';

function checkReferences(c: Collector, key: string, refs: readonly WireReference[] | undefined, what: string) {
  const seen = new Set<string>();
  refs?.forEach((ref, index) => {
    // An element is `{"id": "1"}` or the id itself, `"1"`.
    const id = typeof ref === 'string' ? ref : ref.id;
    const field = formatFieldPath(typeof ref === 'string' ? [key, index] : [key, index, 'id']);
    if (!REFERENCE_ID_PATTERN.test(id)) {
      c.add({ field, message: `must be a ${what} identifier (a number)` });
    } else if (seen.has(id)) {
      c.add({ field, message: `${what} ${id} is listed twice` });
    }
    seen.add(id);
  });
}

function checkOption(c: Collector, base: readonly PropertyKey[], option: WireAttributeOption) {
  c.check([...base, 'name'], option.name ?? '', required('Option name'), maxLength(MAX_NAME_LENGTH));
  c.check([...base, 'enabled'], option.enabled, booleanString);
  for (const key of OPTION_FIELD_KEYS) c.check([...base, key], option[key], maxLength(MAX_TEXT_LENGTH));
  for (const key of OPTION_PRICE_KEYS) c.check([...base, key], option[key], minorUnits);
  c.check([...base, OPTION_INVENTORY_KEY], option[OPTION_INVENTORY_KEY], count);
}

function checkAttribute(c: Collector, index: number, attribute: WireAttribute) {
  const base = ['attributes', index];
  c.check([...base, 'name'], attribute.name ?? '', required('Attribute name'), maxLength(MAX_NAME_LENGTH));
  c.check([...base, 'enabled'], attribute.enabled, booleanString);
  const names = new Map<string, number>();
  attribute.items?.forEach((option, i) => {
    checkOption(c, [...base, 'items', i], option);
    const key = (option.name ?? '').trim().toLowerCase();
    if (key === '') return;
    const first = names.get(key);
    if (first === undefined) names.set(key, i);
    else
      c.add({
        field: formatFieldPath([...base, 'items', i, 'name']),
        message: `another option of this attribute (option ${first + 1}) is already called "${option.name?.trim()}"`,
      });
  });
}

/** The 422 layer: the rules of platform-notes over a well-formed product. Slug uniqueness is the store's. */
export function productRuleViolations(product: WireProduct): ErrorDetail[] {
  return collectRuleViolations(product).details;
}

function collectRuleViolations(product: WireProduct): Collector {
  const c = new Collector();
  c.check(['name'], product.name ?? '', required('Name'), maxLength(MAX_NAME_LENGTH));
  c.check(['slug'], product.slug, maxLength(MAX_NAME_LENGTH), slug);
  c.check(['enabled'], product.enabled, booleanString);
  c.check(['weighting'], product.weighting, integer);
  c.check(['release_date'], product.release_date, epochSeconds);
  c.check(['expiry_date'], product.expiry_date, epochSeconds);
  const release = product.release_date;
  const expiry = product.expiry_date;
  if (
    release !== undefined &&
    expiry !== undefined &&
    epochSeconds(release) === null &&
    epochSeconds(expiry) === null &&
    Number(expiry) <= Number(release)
  ) {
    c.add({ field: 'expiry_date', message: 'must be after the release date' });
  }
  checkReferences(c, 'category_array', product.category_array, 'category');
  checkReferences(c, 'secure_zone_array', product.secure_zone_array, 'secure zone');
  for (const key of PRODUCT_FIELD_KEYS) c.check([key], product[key], maxLength(MAX_TEXT_LENGTH));
  for (const key of PRODUCT_INVENTORY_KEYS) c.check([key], product[key], maxLength(MAX_NAME_LENGTH));
  for (const key of PRODUCT_PRICE_KEYS) c.check([key], product[key], minorUnits);
  product.attributes?.forEach((attribute, index) => checkAttribute(c, index, attribute));
  return c;
}

/** The array limits first (422), then shape (400), then rules (422); at most MAX_ERROR_DETAILS details. */
export function validateProduct(body: unknown): ProductCheck {
  const limits = arrayLimitViolations(body);
  if (limits.length > 0) return { ok: false, status: 422, details: limits, total: limits.length };
  const shape = checkProductShape(body);
  if (!shape.ok) return shape;
  const rules = collectRuleViolations(shape.product);
  return rules.total > 0 ? { ok: false, status: 422, details: rules.details, total: rules.total } : shape;
}
