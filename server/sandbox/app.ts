/**
 * The sandbox: our own implementation of Site API v2 (the two operations of the spec, the platform's
 * documented list of a form's cases and its list, read and update of products, its auth rules, status
 * codes and error shape, and the validation rules of platform-notes), plus sandbox-only helpers under /__sandbox that live outside the API's base
 * path and so are never reachable through the proxy.
 *
 * One sandbox stands in for several sites, as one platform key would not: each request works on the site
 * of its x-site-id, with that site's own cases and products.
 */
import { Hono, type Context } from 'hono';
import { parse as parseContentType } from 'content-type';
import { bodyLimit } from 'hono/body-limit';
import { parse, stringify } from 'lossless-json';
import { createHash, timingSafeEqual } from 'node:crypto';
import { checkCaseListQuery, formIdentifierViolations } from '../../src/contract/case-list';
import { caseIdentifierViolations } from '../../src/contract/identifiers';
import { checkProductListQuery, PLATFORM_ID_PATTERN, PRODUCTS_PATH, validateProductUpdate } from '../../src/contract/products';
import { cutNote, validateProduct } from '../../src/contract/rules';
import { API_BASE_PATH, errorBody, formCaseSchema, type ErrorDetail, type WireProduct } from '../../src/contract/site-api';
import { isJsonObject } from '../../src/contract/site-api-basics';
import { mergeUpdate, type UpdateRefusal } from './product-update';
import { catalogueProducts, warrantyClaims } from './seed';
import { productRecord, type InsertResult, type SandboxStore } from './store';

export interface SandboxOptions {
  store: SandboxStore;
  apiKey: string;
  /** The sites it serves; the valid key with any other site id gets 403. */
  siteIds: readonly string[];
  /** Largest request body accepted, in bytes. */
  maxBodyBytes?: number;
}

type Status = 400 | 401 | 403 | 404 | 413 | 422 | 500;

/** Cases one call of /__sandbox/cases/generate adds at most. */
const MAX_GENERATED_CASES = 100_000;
/** Products one call of /__sandbox/products/generate adds at most. */
const MAX_GENERATED_PRODUCTS = 50_000;
/** Update bodies kept per product for /__sandbox/product-writes (the oldest go first). */
const MAX_WRITES_KEPT = 200;
/** The message of a product list or read that finds nothing, as the platform words it. */
const NO_PRODUCTS = 'Product does not exist or this site has no products';

function fail(c: Context, status: Status, message: string, details?: ErrorDetail[]) {
  return c.json(errorBody(status, message, details), status);
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `siteId`: the site of the request, set once it is authenticated. */
type SandboxEnv = { Variables: { siteId: string } };

/** More creates than this waiting at once are committed without waiting for the next turn of the loop. */
const MAX_BATCH = 256;

/**
 * Creates that arrive together are committed together: each create joins the batch of the current turn of
 * the event loop, and the batch is written in one transaction (setImmediate: after the socket reads of this
 * turn, so every create whose body has arrived joins). One commit per batch instead of one per product;
 * every create is answered after its own transaction has committed, never before.
 */
function batchedInserts(store: SandboxStore) {
  type Waiting = { siteId: string; product: WireProduct; resolve: (result: InsertResult) => void; reject: (error: unknown) => void };
  let waiting: Waiting[] = [];
  const flush = () => {
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    let results: InsertResult[];
    try {
      results = store.insertProducts(batch);
    } catch (error) {
      // Nothing of the batch was stored: each create fails (500), none is acknowledged.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, index) => {
      const result = results[index];
      if (result) item.resolve(result);
      else item.reject(new Error('The store returned fewer results than it was given products.'));
    });
  };
  return (siteId: string, product: WireProduct) =>
    new Promise<InsertResult>((resolve, reject) => {
      if (waiting.length === 0) setImmediate(flush);
      waiting.push({ siteId, product, resolve, reject });
      if (waiting.length >= MAX_BATCH) flush();
    });
}

export function createSandboxApp(options: SandboxOptions) {
  const { store } = options;
  const sites = new Set(options.siteIds);
  const keyDigest = digest(options.apiKey);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const app = new Hono<SandboxEnv>();
  /** List requests answered since start, by "site id/form": counted for tests (GET /__sandbox/list-requests). */
  const listRequests = new Map<string, number>();
  /** Update bodies received since start, by "site id/product id", as text: for tests (GET /__sandbox/product-writes). */
  const productWrites = new Map<string, { body: string; status: number }[]>();

  app.onError((error, c) => {
    console.error('sandbox: unexpected error', error);
    return fail(c, 500, 'The sandbox failed unexpectedly; the request was not applied.');
  });
  app.notFound((c) => fail(c, 404, `No operation at ${c.req.method} ${c.req.path}`));

  // Authentication for the API and the helpers alike: 401 for a missing or wrong key or a missing or
  // malformed site id, 403 for a valid key used on another site. Keys are compared in constant time.
  const authenticate = async (c: Context<SandboxEnv>, next: () => Promise<void>) => {
    const key = c.req.header('x-api-key');
    const site = c.req.header('x-site-id');
    if (!key) return fail(c, 401, 'Authentication is required: the x-api-key header is missing.');
    if (!timingSafeEqual(digest(key), keyDigest)) return fail(c, 401, 'The API key is not valid.');
    if (!site) return fail(c, 401, 'Authentication is required: the x-site-id header is missing.');
    if (!/^[1-9]\d{0,17}$/.test(site)) return fail(c, 401, 'The x-site-id header must be a numeric site identifier.');
    if (!sites.has(site)) return fail(c, 403, `This API key has no permission on site ${site}.`);
    c.set('siteId', site);
    await next();
  };
  app.use(`${API_BASE_PATH}/*`, authenticate);
  app.use('/__sandbox/*', authenticate);

  /**
   * The list of a form's cases, in the default envelope of the site profile (`results`): one page, sorted
   * and filtered as asked (src/contract/case-list.ts), with its totals. Unasked, a page is the newest 20.
   * No case matching (an empty form, or a filter nothing meets): 404, as the platform documents; a page
   * past the last of a list that has cases: 200 with no results and the totals.
   */
  app.get(`${API_BASE_PATH}/forms/:form/cases`, (c) => {
    const form = c.req.param('form');
    const counted = `${c.get('siteId')}/${form}`;
    listRequests.set(counted, (listRequests.get(counted) ?? 0) + 1);
    const url = c.req.url;
    const start = url.indexOf('?');
    const check = checkCaseListQuery(start < 0 ? '' : url.slice(start + 1).split('#')[0]!);
    const details = [...formIdentifierViolations(form), ...(check.ok ? [] : check.details)];
    if (!check.ok || details.length > 0) return fail(c, 422, 'Required data missing or data invalid.', details);
    const { query } = check;
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { total, records } = store.listCases(c.get('siteId'), {
      form,
      perPage,
      page,
      sortType: query.sort_type ?? 'created_at',
      sortOrder: query.sort_order ?? 'desc',
      filter: query.filter ?? {},
    });
    if (total === 0) return fail(c, 404, 'The form does not contain any cases');
    // The stored texts as they are, so every number goes out as it was written.
    const body =
      `{"results":[${records.join(',')}],"total_entries":${total},"total_pages":${Math.ceil(total / perPage)},` +
      `"current_page":${page},"per_page":${perPage}}`;
    return c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' });
  });

  app.get(`${API_BASE_PATH}/forms/:form/cases/:id`, (c) => {
    const form = c.req.param('form');
    const id = c.req.param('id');
    const details = caseIdentifierViolations(form, id);
    if (details.length > 0) return fail(c, 422, 'The form or case identifier is not valid.', details);
    // Stored as JSON text: sent as it is, without parsing and serialising it again.
    const found = store.getCaseText(c.get('siteId'), form, id);
    if (found === undefined) return fail(c, 404, `Form ${form} has no case ${id}.`);
    return c.body(found, 200, { 'content-type': 'application/json; charset=UTF-8' });
  });

  const countedBodyLimit = bodyLimit({
    maxSize: maxBodyBytes,
    onError: (c) => fail(c, 413, `The request body is larger than ${maxBodyBytes} bytes.`),
  });
  /**
   * A body with a declared length is judged by it, and then read straight from the socket. Hono's bodyLimit
   * would first build a web ReadableStream for it, which measured at a quarter of a create's time; a body of
   * unknown length (chunked) still goes through bodyLimit, which counts it as it arrives.
   */
  const limitBody = async (c: Context<SandboxEnv>, next: () => Promise<void>) => {
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return countedBodyLimit(c, next);
    if (Number(declared) > maxBodyBytes) return fail(c, 413, `The request body is larger than ${maxBodyBytes} bytes.`);
    await next();
  };
  const insertProduct = batchedInserts(store);
  /** A body not declared as JSON: 400 naming Content-Type. */
  const notJson = (c: Context<SandboxEnv>) => {
    const type = c.req.header('content-type') ?? '';
    // The same parser as the proxy's for the platform's answers (platform-answer.ts); any charset, as before.
    if (type && parseContentType(type).type === 'application/json') return null;
    return fail(c, 400, 'The request body must be sent as application/json.', [
      { field: 'Content-Type', message: `must be application/json, not ${type ? `"${type}"` : 'missing'}` },
    ]);
  };
  const refuse = (c: Context<SandboxEnv>, status: 400 | 422, message: string, details: ErrorDetail[], total: number) =>
    fail(c, status, total > details.length ? `${message} ${cutNote(total, details.length)}` : message, details);

  /**
   * The site's products, in the default list envelope of the site profile (`results`): one page, sorted as
   * asked (src/contract/products.ts), with the totals. Unasked, a page is the 20 newest (created_at desc,
   * ties by id). `properties` keeps those top-level keys of each record, and `id` always. No product on
   * the site: 404, as the platform documents; a page past the last: 200 with no results and the totals.
   */
  app.get(`${API_BASE_PATH}${PRODUCTS_PATH}`, (c) => {
    const url = c.req.url;
    const start = url.indexOf('?');
    const check = checkProductListQuery(start < 0 ? '' : url.slice(start + 1).split('#')[0]!);
    if (!check.ok) return fail(c, 422, 'Required data missing or data invalid.', check.details);
    const { query } = check;
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { total, records } = store.listProductPage(c.get('siteId'), {
      perPage,
      page,
      sortType: query.sort_type ?? 'created_at',
      sortOrder: query.sort_order ?? 'desc',
    });
    if (total === 0) return fail(c, 404, NO_PRODUCTS);
    const keep = query.properties ? new Set(['id', ...query.properties]) : null;
    const results = keep ? records.map((record) => Object.fromEntries(Object.entries(record).filter(([key]) => keep.has(key)))) : records;
    return c.json({ results, total_entries: total, total_pages: Math.ceil(total / perPage), current_page: page, per_page: perPage });
  });

  /** One product, as the list's records are; an id that is not a platform id names no product either. */
  app.get(`${API_BASE_PATH}${PRODUCTS_PATH}/:id`, (c) => {
    const id = c.req.param('id') ?? '';
    const row = PLATFORM_ID_PATTERN.test(id) ? store.getProduct(c.get('siteId'), id) : undefined;
    if (!row) return fail(c, 404, NO_PRODUCTS);
    return c.json(productRecord(row));
  });

  /**
   * An update: the body checked as the contract says (validateProductUpdate: 400 for its shape, 422 for
   * the create's rules and the update's own), then merged into the product (product-update.ts) and the
   * result held to the create's rules, the slug unique on the site. Answers the whole record. Every body
   * received for a product is kept as text, with its answer's status, for /__sandbox/product-writes.
   */
  app.put(`${API_BASE_PATH}${PRODUCTS_PATH}/:id`, limitBody, async (c) => {
    const id = c.req.param('id') ?? '';
    const siteId = c.get('siteId');
    if (!PLATFORM_ID_PATTERN.test(id)) return fail(c, 404, NO_PRODUCTS);
    const text = await c.req.text();
    const response = updateProduct(c, siteId, id, text);
    const key = `${siteId}/${id}`;
    const writes = productWrites.get(key) ?? [];
    writes.push({ body: text, status: response.status });
    if (writes.length > MAX_WRITES_KEPT) writes.shift();
    productWrites.set(key, writes);
    return response;
  });
  const updateProduct = (c: Context<SandboxEnv>, siteId: string, id: string, text: string) => {
    if (!store.getProduct(siteId, id)) return fail(c, 404, NO_PRODUCTS);
    const wrongType = notJson(c);
    if (wrongType) return wrongType;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return fail(c, 400, 'The request body is not valid JSON.', [{ field: 'body', message: 'is not valid JSON' }]);
    }
    const check = validateProductUpdate(body, validateProduct);
    if (!check.ok) {
      const message =
        check.status === 400
          ? 'The update is malformed: some fields have the wrong type or are not fields of a product.'
          : 'The update has fields with values that are not allowed.';
      return refuse(c, check.status, message, check.details, check.total);
    }
    const result = store.updateProduct<UpdateRefusal>(siteId, id, (row, newId) => mergeUpdate(row.body, check.product, newId));
    if (result.ok) return c.json(productRecord(result.row));
    if (result.reason === 'not-found') return fail(c, 404, NO_PRODUCTS);
    if (result.reason !== 'refused') {
      return fail(c, 422, 'The update has fields with values that are not allowed.', [
        { field: 'slug', message: 'is already used by another product on this site' },
      ]);
    }
    return refuse(c, 422, result.refused.message, result.refused.details, result.refused.total);
  };

  app.post(`${API_BASE_PATH}/ecommerce/products/create`, limitBody, async (c) => {
    const wrongType = notJson(c);
    if (wrongType) return wrongType;
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return fail(c, 400, 'The request body is not valid JSON.', [{ field: 'body', message: 'is not valid JSON' }]);
    }
    const check = validateProduct(body);
    if (!check.ok) {
      const message =
        check.status === 400
          ? 'The product is malformed: some fields have the wrong type or are not fields of a product.'
          : 'The product has fields with values that are not allowed.';
      return refuse(c, check.status, message, check.details, check.total);
    }
    // Answered only once the transaction holding this product has committed.
    const result = await insertProduct(c.get('siteId'), check.product);
    if (!result.ok) {
      return fail(c, 422, 'The product has fields with values that are not allowed.', [
        { field: 'slug', message: `is already used by another product on this site` },
      ]);
    }
    return c.json(result.record);
  });

  // Sandbox-only helpers, for tests and demos.
  /**
   * `GET /__sandbox/list-requests?form=12`: how many list requests of that form of the site of `x-site-id`
   * this sandbox has answered since it started, whatever their answer: what a test counts to see that the
   * team's inboxes cost the platform one reading per interval, not one per person.
   */
  app.get('/__sandbox/list-requests', (c) => {
    const form = c.req.query('form') ?? '';
    const problems = formIdentifierViolations(form);
    if (problems.length > 0) return fail(c, 422, 'Required data missing or data invalid.', problems);
    return c.json({ form, requests: listRequests.get(`${c.get('siteId')}/${form}`) ?? 0 });
  });
  /**
   * `GET /__sandbox/products?limit=100`: the site's newest products, each with `body` (its fields as a
   * create sends them, without ids) and `record` (as the API reads it).
   */
  app.get('/__sandbox/products', (c) => {
    const requested = Number(c.req.query('limit') ?? 100);
    const limit = Number.isFinite(requested) ? Math.min(Math.max(Math.trunc(requested), 1), 1000) : 100;
    return c.json({ products: store.listProducts(c.get('siteId'), limit) });
  });
  /**
   * `GET /__sandbox/product-writes?id=1042`: every update body this sandbox received for that product of
   * the site since it started (the last 200), as the exact text received, oldest first, with the status
   * it answered: what a test reads to see that the platform received exactly that.
   */
  app.get('/__sandbox/product-writes', (c) => {
    const id = c.req.query('id') ?? '';
    if (!PLATFORM_ID_PATTERN.test(id)) {
      return fail(c, 422, 'Required data missing or data invalid.', [{ field: 'id', message: 'must be a product id (a platform id)' }]);
    }
    return c.json({ id, writes: productWrites.get(`${c.get('siteId')}/${id}`) ?? [] });
  });
  /**
   * `{"count": 5000}`: that many catalogue products (seed.ts) added to the site at once, in one
   * transaction, slugs ending in their number after every product of the database so they never clash,
   * created over the year before 2026: a large catalogue for a demo or the bench, made when asked.
   */
  app.post('/__sandbox/products/generate', limitBody, async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return fail(c, 400, 'The request body is not valid JSON.', [{ field: 'body', message: 'is not valid JSON' }]);
    }
    const count = isJsonObject(body) ? body.count : undefined;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_GENERATED_PRODUCTS) {
      return fail(c, 422, 'Say how many products.', [
        { field: 'count', message: `must be a whole number from 1 to ${MAX_GENERATED_PRODUCTS}` },
      ]);
    }
    const siteId = c.get('siteId');
    const after = store.maxProductId();
    const products = catalogueProducts({
      count,
      seed: count,
      from: 1735689600, // 2025-01-01T00:00:00Z
      gapSeconds: Math.max(60, Math.floor((365 * 86400) / count)),
      currencies: ['nzd', 'aud', 'usd', 'gbp'],
      slugSuffix: (index) => String(after + index + 1),
    });
    const results = store.insertProducts(products.map(({ product, createdAt }) => ({ siteId, product, createdAt })));
    const ids = results.flatMap((result) => (result.ok ? [result.record.id] : []));
    return c.json({ count, created: ids.length, first: ids[0], last: ids.at(-1) });
  });

  /**
   * `{"form": "40", "count": 20000}`: that many warranty claims added to a form at once, in one transaction,
   * ids after every case of the site, a year of them from 2026-01-01: a large form for a demo or the bench,
   * made when asked rather than on every start. The same count on a fresh sandbox gives the same cases.
   */
  app.post('/__sandbox/cases/generate', limitBody, async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return fail(c, 400, 'The request body is not valid JSON.', [{ field: 'body', message: 'is not valid JSON' }]);
    }
    const form = isJsonObject(body) ? body.form : undefined;
    const count = isJsonObject(body) ? body.count : undefined;
    const details: ErrorDetail[] = [];
    if (typeof form !== 'string' || caseIdentifierViolations(form, 'x').length > 0) {
      details.push({ field: 'form', message: 'must be a form identifier' });
    }
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > MAX_GENERATED_CASES) {
      details.push({ field: 'count', message: `must be a whole number from 1 to ${MAX_GENERATED_CASES}` });
    }
    if (details.length > 0 || typeof form !== 'string' || typeof count !== 'number') {
      return fail(c, 422, 'Say which form and how many cases.', details);
    }
    const siteId = c.get('siteId');
    const cases = warrantyClaims({
      form,
      count,
      afterId: store.maxCaseId(siteId),
      from: 1767225600, // 2026-01-01T00:00:00Z
      meanGapSeconds: Math.max(600, Math.floor((365 * 86400) / count)),
      seed: count,
    });
    store.addCases(siteId, cases);
    return c.json({ form, count, first: cases[0]?.id, last: cases.at(-1)?.id });
  });

  app.post('/__sandbox/cases', limitBody, async (c) => {
    let body: unknown;
    try {
      // Every number kept as written (12345678901234567890 stays so), as a platform's record would be.
      body = parse(await c.req.text());
    } catch {
      return fail(c, 400, 'The request body is not valid JSON.', [{ field: 'body', message: 'is not valid JSON' }]);
    }
    const input = formCaseSchema.safeParse(body);
    const form = input.success ? input.data.form : undefined;
    const record = input.success ? input.data.record : undefined;
    if (typeof form !== 'string' || caseIdentifierViolations(form, 'x').length > 0) {
      return fail(c, 422, 'A case needs a form identifier.', [{ field: 'form', message: 'must be a form identifier' }]);
    }
    const parsedRecord = formCaseSchema.safeParse(record ?? {});
    if (!parsedRecord.success) {
      return fail(c, 400, 'The case record must be a JSON object.', [{ field: 'record', message: 'must be an object' }]);
    }
    return c.body(stringify(store.addCase(c.get('siteId'), form, parsedRecord.data)) ?? '{}', 200, {
      'content-type': 'application/json; charset=UTF-8',
    });
  });

  return app;
}
