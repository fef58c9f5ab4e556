/**
 * The platform's list of a form's cases, `GET /forms/{form}/cases`, beside the lookup of one case: its
 * query parameters and their rules, the `filter` syntax we send, and the list envelopes a site profile can
 * name. The operation is documented by the platform (platform-operations.md) but not in our spec; what the
 * documentation leaves open is decided here, once, for the server's allowlist, the sandbox and the browser.
 *
 * - The query: `per_page` (1 to 500), `page` (a positive integer), `sort_type` (one of
 *   CASE_LIST_SORT_TYPES), `sort_order` (`asc` | `desc`) and `filter` (a JSON object, see below). Nothing
 *   else, each at most once.
 * - The filter: the one syntax the platform documents (on its list of pages) is a URL-encoded JSON object,
 *   `{"slug": "my-page"}` or `{"created_at": {"gt": 1700000000}}`. We send exactly that form: each key
 *   names a field of the case, each value is a scalar (equality) or an object of the operators `gt`, `lt`
 *   and `contains`. That cases take the same form is an inference to confirm against a live site.
 * - The envelope: the platform does not publish where a list's items and totals are, so the site profile
 *   names one of LIST_ENVELOPE_NAMES (`sites[].lists.envelope`); `readListEnvelope` accepts exactly that one.
 *
 * Without zod, like identifiers.ts: the server checks every list request with it, and the browser builds
 * its queries with it.
 */
import { parse } from 'lossless-json';
import { identifierProblem } from './identifiers';
import type { ErrorDetail } from './site-api';
import { isJsonObject } from './site-api-basics';
import { positiveInteger, readQueryParameters } from './query-parameters';

/** The list's path under the base address: `/forms/3/cases`. */
export const formCasesPath = (form: string) => `/forms/${encodeURIComponent(form)}/cases`;

/** The platform's documented maximum page size. */
export const CASE_LIST_MAX_PER_PAGE = 500;
/** A page number beyond any list a form can hold (500 × a million cases), so a number is never a huge string. */
export const CASE_LIST_MAX_PAGE = 1_000_000;
/**
 * What a list may be sorted by: the record's own fields every case has (platform-notes' record shape; the
 * documentation's example is `created_at`). A case cannot be changed on the platform, but its records
 * carry `updated_at` as every record there does.
 */
export const CASE_LIST_SORT_TYPES = ['created_at', 'updated_at', 'id'] as const;
export type CaseListSortType = (typeof CASE_LIST_SORT_TYPES)[number];
export const CASE_LIST_SORT_ORDERS = ['asc', 'desc'] as const;
export type CaseListSortOrder = (typeof CASE_LIST_SORT_ORDERS)[number];

/** The filter's text at most (characters, once decoded): a few dozen conditions, never a payload. */
export const CASE_FILTER_MAX_LENGTH = 2000;
/** Conditions in one filter at most. */
export const CASE_FILTER_MAX_FIELDS = 20;
/** A string value of a condition at most. */
export const CASE_FILTER_MAX_VALUE_LENGTH = 200;
/** The operators of a condition; a scalar instead of an object means equality. */
export const CASE_FILTER_OPERATORS = ['gt', 'lt', 'contains'] as const;
export type CaseFilterOperator = (typeof CASE_FILTER_OPERATORS)[number];
/**
 * A filter's key: the record's own `id`, `created_at` or `updated_at`, or the name of one of its fields
 * (`name`, `email`, `form_field_3_1`, ...: what the record keeps under `properties`).
 */
export const CASE_FILTER_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** The keys that name the record's own fields rather than one of `properties`. */
export const CASE_RECORD_KEYS = ['id', 'created_at', 'updated_at'] as const;

export type CaseFilterScalar = string | number | boolean;
export type CaseFilterCondition = CaseFilterScalar | Partial<Record<'gt' | 'lt', string | number> & Record<'contains', string>>;
export type CaseFilter = Record<string, CaseFilterCondition>;

/** The parameters of a list request, each optional (the platform has its defaults). */
export interface CaseListQuery {
  per_page?: number;
  page?: number;
  sort_type?: CaseListSortType;
  sort_order?: CaseListSortOrder;
  filter?: CaseFilter;
}

/** The parameters in the order they are written on the wire. */
export const CASE_LIST_PARAMETERS = ['per_page', 'page', 'sort_type', 'sort_order', 'filter'] as const;

const isScalar = (value: unknown): value is CaseFilterScalar =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

function stringProblem(value: string): string | null {
  return value.length > CASE_FILTER_MAX_VALUE_LENGTH ? `is longer than ${CASE_FILTER_MAX_VALUE_LENGTH} characters` : null;
}

/** Why `condition` cannot be a condition of the filter, or null when it can. */
function conditionProblem(condition: unknown): string | null {
  if (typeof condition === 'string') return stringProblem(condition);
  if (isScalar(condition)) return null;
  if (!isJsonObject(condition)) return 'must be a string, a number, true, false, or an object of "gt", "lt" and "contains"';
  const operators = Object.keys(condition);
  if (operators.length === 0) return 'must name at least one of "gt", "lt" and "contains"';
  for (const operator of operators) {
    const value = condition[operator];
    if (operator === 'gt' || operator === 'lt') {
      if (typeof value === 'string') {
        const problem = stringProblem(value);
        if (problem) return `"${operator}" ${problem}`;
      } else if (typeof value !== 'number' || !Number.isFinite(value)) return `"${operator}" must be a number or a string (a date)`;
    } else if (operator === 'contains') {
      if (typeof value !== 'string' || value === '') return '"contains" must be a text that is not empty';
      const problem = stringProblem(value);
      if (problem) return `"contains" ${problem}`;
    } else return `has "${operator}", which is not an operator (use "gt", "lt" or "contains")`;
  }
  return null;
}

/** Each problem of a parsed filter, as `details` name them (`filter.email`); none for a filter we send. */
export function caseFilterProblems(filter: unknown): ErrorDetail[] {
  if (!isJsonObject(filter)) return [{ field: 'filter', message: 'must be a JSON object, e.g. {"email": "ana@example.com"}' }];
  const keys = Object.keys(filter);
  if (keys.length > CASE_FILTER_MAX_FIELDS) return [{ field: 'filter', message: `has more than ${CASE_FILTER_MAX_FIELDS} conditions` }];
  const details: ErrorDetail[] = [];
  for (const key of keys) {
    if (!CASE_FILTER_KEY.test(key)) {
      details.push({ field: 'filter', message: `has the key ${JSON.stringify(key.slice(0, 70))}, which is not a field name` });
      continue;
    }
    const problem = conditionProblem(filter[key]);
    if (problem) details.push({ field: `filter.${key}`, message: problem });
  }
  return details;
}

/** What the server forwards: the checked query, and its text as sent on (`?per_page=50&page=2`, or ''). */
export type CaseListQueryCheck = { ok: true; query: CaseListQuery; search: string } | { ok: false; details: ErrorDetail[] };

/**
 * Checks a list request's raw query string (without the `?`, still encoded) against the rules above: every
 * parameter named, each at most once, each value well formed. The text sent on is rebuilt from what was
 * checked, in CASE_LIST_PARAMETERS' order; the filter goes on as it was written (its numbers digit for
 * digit), only re-encoded.
 */
export function checkCaseListQuery(rawQuery: string): CaseListQueryCheck {
  const { values, details } = readQueryParameters(rawQuery, CASE_LIST_PARAMETERS);

  const query: CaseListQuery = {};
  const perPage = values.get('per_page');
  if (perPage !== undefined) {
    const read = positiveInteger(perPage, CASE_LIST_MAX_PER_PAGE);
    if (read !== undefined) query.per_page = read;
    else details.push({ field: 'per_page', message: `must be a whole number from 1 to ${CASE_LIST_MAX_PER_PAGE}` });
  }
  const page = values.get('page');
  if (page !== undefined) {
    const read = positiveInteger(page, CASE_LIST_MAX_PAGE);
    if (read !== undefined) query.page = read;
    else details.push({ field: 'page', message: `must be a whole number from 1 to ${CASE_LIST_MAX_PAGE}` });
  }
  const sortType = values.get('sort_type');
  if (sortType !== undefined) {
    const known = CASE_LIST_SORT_TYPES.find((type) => type === sortType);
    if (known) query.sort_type = known;
    else details.push({ field: 'sort_type', message: `must be one of ${CASE_LIST_SORT_TYPES.join(', ')}` });
  }
  const sortOrder = values.get('sort_order');
  if (sortOrder !== undefined) {
    const known = CASE_LIST_SORT_ORDERS.find((order) => order === sortOrder);
    if (known) query.sort_order = known;
    else details.push({ field: 'sort_order', message: 'must be asc or desc' });
  }
  const filterText = values.get('filter');
  if (filterText !== undefined) {
    if (filterText.length > CASE_FILTER_MAX_LENGTH) {
      details.push({ field: 'filter', message: `is longer than ${CASE_FILTER_MAX_LENGTH} characters` });
    } else {
      let filter: unknown;
      try {
        // lossless-json refuses a key given twice, which JSON.parse would settle by keeping the last: the
        // text goes on as written, so a condition that was never checked must not ride along in it.
        filter = parse(filterText, null, { parseNumber: Number });
      } catch (error) {
        filter = undefined;
        const twice = error instanceof Error && /^Duplicate key '(.*)' encountered/.exec(error.message);
        details.push({ field: 'filter', message: twice ? `has the key ${JSON.stringify(twice[1])} more than once` : 'is not valid JSON' });
      }
      if (filter !== undefined) {
        const problems = caseFilterProblems(filter);
        if (problems.length > 0) details.push(...problems);
        else query.filter = filter as CaseFilter;
      }
    }
  }
  if (details.length > 0) return { ok: false, details };

  const sent: string[] = [];
  for (const name of CASE_LIST_PARAMETERS) {
    const value = name === 'filter' ? filterText : values.get(name);
    if (value !== undefined) sent.push(`${name}=${encodeURIComponent(value)}`);
  }
  return { ok: true, query, search: sent.length > 0 ? `?${sent.join('&')}` : '' };
}

/** The query string of `query` as the browser sends it (`?per_page=50&page=2&filter=...`), '' for none. */
export function caseListSearch(query: CaseListQuery): string {
  const sent: string[] = [];
  for (const name of CASE_LIST_PARAMETERS) {
    const value = query[name];
    if (value === undefined) continue;
    sent.push(`${name}=${encodeURIComponent(typeof value === 'object' ? JSON.stringify(value) : String(value))}`);
  }
  return sent.length > 0 ? `?${sent.join('&')}` : '';
}

// ---------------------------------------------------------------------------------------------------------
// The list's envelope

/**
 * The envelopes a site profile can name (`sites[].lists.envelope`):
 *
 * - `results` (the default, what the sandbox answers): the platform runs on platformOS, whose paginated
 *   collections carry exactly these names, the same `per_page` and `page` the list takes as parameters.
 * - `data-meta`: the items under `data` and the totals under `meta`, as many JSON APIs write a page.
 * - `array`: the items alone, with no totals (the reader then knows only whether a page was full).
 */
export const LIST_ENVELOPE_NAMES = ['results', 'data-meta', 'array'] as const;
export type ListEnvelope = (typeof LIST_ENVELOPE_NAMES)[number];
export const DEFAULT_LIST_ENVELOPE: ListEnvelope = 'results';

type Count = 'total' | 'pages' | 'page' | 'perPage';
/**
 * Each envelope once: under which key the items are, in which object the counts are (the answer itself,
 * or one of its keys), and each count's key; null for a bare list of items.
 */
const SHAPES: Readonly<Record<ListEnvelope, { items: string; countsIn: string | null; counts: Partial<Record<Count, string>> } | null>> = {
  results: {
    items: 'results',
    countsIn: null,
    counts: { total: 'total_entries', pages: 'total_pages', page: 'current_page', perPage: 'per_page' },
  },
  'data-meta': { items: 'data', countsIn: 'meta', counts: { total: 'total', page: 'page', perPage: 'per_page' } },
  array: null,
};

/** An envelope as an example of its answer, for the docs and the words of a refusal: `{"data": [...], "meta": {...}}`. */
export function describeListEnvelope(envelope: ListEnvelope): string {
  const shape = SHAPES[envelope];
  if (!shape) return '[...]';
  const example: Record<Count, number> = { total: 340, pages: 17, page: 1, perPage: 20 };
  const counts = (Object.entries(shape.counts) as [Count, string][]).map(([count, key]) => `"${key}": ${example[count]}`).join(', ');
  return shape.countsIn === null ? `{"${shape.items}": [...], ${counts}}` : `{"${shape.items}": [...], "${shape.countsIn}": {${counts}}}`;
}

/** What a list's answer holds, read through its envelope: the items, and the counts where it has them. */
export interface ListEnvelopeContent {
  items: Record<string, unknown>[];
  /** Items in the whole list (all pages); null when the envelope has no total. */
  total: number | null;
  /** The page this is, as the answer says; null when it does not say. */
  page: number | null;
  /** Items per page, as the answer says; null when it does not say. */
  perPage: number | null;
}

/**
 * A count of the envelope: a non-negative whole number, also written as a string of digits (the
 * platform writes every scalar of its records as a string). Undefined when `value` is no count.
 */
function countOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^(0|[1-9]\d{0,14})$/.test(value)) return Number(value);
  return undefined;
}

function itemsOf(value: unknown): Record<string, unknown>[] | string {
  if (!Array.isArray(value)) return 'is not a list';
  const index = value.findIndex((item) => !isJsonObject(item));
  return index < 0 ? (value as Record<string, unknown>[]) : `has an item (number ${index + 1}) that is not a JSON object`;
}

/**
 * Reads a parsed answer through `envelope`: its content, or why it is not that envelope. Accepts exactly
 * what the envelope describes: the keys named must be there with the types named (other keys may be
 * there too, as an API adds fields over time).
 */
export function readListEnvelope(
  envelope: ListEnvelope,
  json: unknown,
): { ok: true; content: ListEnvelopeContent } | { ok: false; problem: string } {
  const shape = SHAPES[envelope];
  if (!shape) {
    const items = itemsOf(json);
    if (typeof items === 'string') return { ok: false, problem: `the answer ${items}` };
    return { ok: true, content: { items, total: null, page: null, perPage: null } };
  }
  if (!isJsonObject(json)) return { ok: false, problem: 'the answer is not a JSON object' };
  const items = itemsOf(json[shape.items]);
  if (typeof items === 'string') {
    return { ok: false, problem: json[shape.items] === undefined ? `it has no "${shape.items}"` : `"${shape.items}" ${items}` };
  }
  const holder = shape.countsIn === null ? json : json[shape.countsIn];
  if (!isJsonObject(holder)) return { ok: false, problem: `it has no "${shape.countsIn ?? ''}" object` };
  const where = shape.countsIn === null ? '' : `${shape.countsIn}.`;
  const read: Partial<Record<Count, number>> = {};
  for (const [count, key] of Object.entries(shape.counts) as [Count, string][]) {
    const value = countOf(holder[key]);
    if (value === undefined) {
      return { ok: false, problem: holder[key] === undefined ? `it has no "${where}${key}"` : `"${where}${key}" is not a whole number` };
    }
    read[count] = value;
  }
  return { ok: true, content: { items, total: read.total ?? null, page: read.page ?? null, perPage: read.perPage ?? null } };
}

/** The envelopes `json` can be read through, in LIST_ENVELOPE_NAMES' order: what a profile check says it found. */
export function envelopesMatching(json: unknown): ListEnvelope[] {
  return LIST_ENVELOPE_NAMES.filter((envelope) => readListEnvelope(envelope, json).ok);
}

/** The list's form identifier; empty when it can be one (the lookup's rule). */
export function formIdentifierViolations(form: string): ErrorDetail[] {
  const problem = identifierProblem(form, 'The form identifier');
  return problem ? [{ field: 'form', message: problem }] : [];
}
