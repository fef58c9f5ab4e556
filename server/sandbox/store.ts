/**
 * The sandbox's storage: form cases and products in SQLite. Knows nothing about HTTP.
 *
 * A product is stored as its record's fields (the create body's, with the ids of its attributes and
 * options inside), its own id being the row's and its dates the row's columns. Attribute and option ids
 * come from one sequence (`id_sequence`), so each is unique in the database, as a platform's are.
 */
import Database from 'better-sqlite3';
import { stringify } from 'lossless-json';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CaseFilter, CaseFilterCondition, CaseListSortOrder, CaseListSortType } from '../../src/contract/case-list';
import { CASE_RECORD_KEYS } from '../../src/contract/case-list';
import { canonicalJson } from '../../src/contract/products';
import type { ProductListSortType, ProductRecord } from '../../src/contract/products';
import type { FormCase, WireProduct } from '../../src/contract/site-api';
import { seedCases, seedProducts, seedWarrantyClaims, type SeedCase, type SeedSet } from './seed';

/** A product's fields as stored: the record without the product's own id and dates (its attributes' and options' ids inside). */
export type StoredProductBody = Omit<ProductRecord, 'id' | 'created_at' | 'updated_at'>;

/** A product's row: its id, site, dates (epoch seconds) and fields. */
export interface ProductRow {
  id: string;
  siteId: string;
  createdAt: number;
  updatedAt: number;
  body: StoredProductBody;
}

/** What `/__sandbox/products` lists: the fields as a create would send them (`body`, no ids), and the record as read. */
export interface StoredProduct {
  id: string;
  site_id: string;
  created_at: number;
  body: WireProduct;
  record: ProductRecord;
}

export type InsertResult = { ok: true; record: ProductRecord } | { ok: false; reason: 'duplicate-slug' };

/** A product to create; `createdAt` (epoch seconds) for a demo's or a bench's products, now by default. */
export interface NewProduct {
  siteId: string;
  product: WireProduct;
  createdAt?: number;
}

/** One page of a site's products, as the list operation asks for it (checked by the contract's rules). */
export interface ProductListRequest {
  perPage: number;
  page: number;
  sortType: ProductListSortType;
  sortOrder: 'asc' | 'desc';
}

/**
 * What an update's `change` decides, given the product as stored and a source of new ids: the new
 * fields, or a refusal (carried back as it is, nothing written).
 */
export type ProductChange<R> = { body: StoredProductBody } | { refused: R };
export type UpdateResult<R> =
  | { ok: true; row: ProductRow; changed: boolean }
  | { ok: false; reason: 'not-found' | 'duplicate-slug' }
  | { ok: false; reason: 'refused'; refused: R };

export interface StoreOptions {
  /** Each newly seeded site gets the demo catalogue (seed.ts) when it has no products; true by default. */
  demoProducts?: boolean;
}

/** The record as the platform answers it: id first, the fields, then its dates as strings of epoch seconds. */
export function productRecord(row: ProductRow): ProductRecord {
  return { id: row.id, ...row.body, created_at: String(row.createdAt), updated_at: String(row.updatedAt) };
}

/** A stored product's fields as a create sends them: without the ids of its attributes and options. */
export function withoutIds(body: StoredProductBody): WireProduct {
  const { attributes, ...rest } = body;
  if (attributes === undefined) return rest;
  return {
    ...rest,
    attributes: attributes.map(({ id: _id, created_at: _c, updated_at: _u, items, ...attribute }) =>
      items === undefined
        ? attribute
        : { ...attribute, items: items.map(({ id: _o, created_at: _oc, updated_at: _ou, ...option }) => option) },
    ),
  };
}

/** One page of a form's cases, as the list operation asks for it (every part checked by the contract's rules). */
export interface CaseListRequest {
  form: string;
  perPage: number;
  page: number;
  sortType: CaseListSortType;
  sortOrder: CaseListSortOrder;
  filter: CaseFilter;
}

export interface SandboxStore {
  /** The cases of one page (their stored JSON text, to send as it is) and how many cases match in all. */
  listCases(siteId: string, request: CaseListRequest): { total: number; records: string[] };
  getCase(siteId: string, form: string, id: string): FormCase | undefined;
  /** The stored JSON text of a case, to send as it is. */
  getCaseText(siteId: string, form: string, id: string): string | undefined;
  addCase(siteId: string, form: string, record: FormCase): FormCase;
  /** Many cases in one transaction, each stored under its own form and id (a demo's or a bench's large form). */
  addCases(siteId: string, cases: readonly SeedCase[]): void;
  /** The largest numeric case id of a site, 0 without cases: where new ids may start. */
  maxCaseId(siteId: string): number;
  /** A new product, its attributes and options given ids; answers the record as read. */
  insertProduct(siteId: string, product: WireProduct): InsertResult;
  /**
   * Several products in one transaction, each with its own result (a slug already used, also by an
   * earlier one of the same batch, fails that product alone). Committed when this returns; should the
   * transaction fail, none is stored and it throws.
   */
  insertProducts(items: readonly NewProduct[]): InsertResult[];
  /** The newest products of a site, for the sandbox's own helper. */
  listProducts(siteId: string, limit?: number): StoredProduct[];
  /** One page of a site's products, as records, and how many the site has. */
  listProductPage(siteId: string, request: ProductListRequest): { total: number; records: ProductRecord[] };
  getProduct(siteId: string, id: string): ProductRow | undefined;
  /**
   * Reads the product and writes what `change` makes of it, in one transaction. `newId` gives a fresh
   * attribute or option id. Unchanged fields write nothing and keep `updated_at`; a change moves
   * `updated_at` to now, and always forward (at least a second past the last), so a reader sees it moved.
   */
  updateProduct<R>(siteId: string, id: string, change: (row: ProductRow, newId: () => string) => ProductChange<R>): UpdateResult<R>;
  /** The largest product id of the database, 0 without products. */
  maxProductId(): number;
  /** Products of one site, or of every site. */
  countProducts(siteId?: string): number;
  integrityCheck(): string;
  close(): void;
}

/** Where attribute and option ids start: far from product ids, so a test that mixes them up fails. */
const FIRST_ITEM_ID = 3_000_001;

/**
 * `form_cases_by_time`: the list's usual order (a form's cases by time, ties by id) read straight from an
 * index, so a page of the newest needs no sort of the whole form: on a form of 20,000 cases a page of 500
 * took 43 ms of CPU without it and under 1 ms with it.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS form_cases (
  site_id TEXT NOT NULL,
  form TEXT NOT NULL,
  id TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (site_id, form, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS products (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  site_id TEXT NOT NULL,
  slug TEXT,
  body TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER,
  UNIQUE (site_id, slug)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS id_sequence (name TEXT PRIMARY KEY, last INTEGER NOT NULL);
INSERT OR IGNORE INTO id_sequence (name, last) VALUES ('item', ${FIRST_ITEM_ID - 1});
CREATE INDEX IF NOT EXISTS form_cases_by_time ON form_cases (site_id, form, json_extract(record, '$.created_at'), CAST(id AS INTEGER));
`;

/**
 * Made after the migration. `products_by_created`: the list's usual order (newest first) read from an
 * index; of 5,000 products a page of 20 took 3.7 ms of CPU without it and 0.33 ms with it, for about 2 µs
 * more per create. Other orders (by name, by updated_at) sort the site's products, 3 to 18 ms at 5,000:
 * an index each would cost every create as much again, for orders a catalogue asks for less.
 */
const LATE_SCHEMA = `
CREATE INDEX IF NOT EXISTS products_by_created ON products (site_id, created_at);
`;

/**
 * The layout of the database, in SQLite's user_version. 0: a database of the single-site sandbox (or a
 * new one), whose meta row `seeded` said that its one site had its demo cases; 1: one `seeded:<site id>`
 * row per site, so each site of a profile is seeded once, whenever it first appears; 2: products have
 * `updated_at`, and their attributes and options ids.
 */
const LAYOUT = 2;

/**
 * Brings a database of an older layout up to LAYOUT, in one transaction. The tables already keep every
 * row under its site id, so the rows of the single-site sandbox stay with the site they were created on;
 * only the record of which sites were seeded changes.
 */
function migrate(db: Database.Database) {
  // IMMEDIATE: a second process opening the same file waits rather than migrating it twice.
  db.transaction(() => {
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > LAYOUT) {
      throw new Error(
        `The sandbox database ${db.name} was written by a newer site-admin (layout ${version}, this one knows ${LAYOUT}). ` +
          'Use that version, or delete the file to start afresh.',
      );
    }
    if (version === LAYOUT) return;
    if (version < 1 && db.prepare("SELECT 1 FROM meta WHERE key = 'seeded'").get()) {
      // The single-site sandbox seeded the one site it served: every site that has cases was seeded.
      db.prepare("INSERT OR IGNORE INTO meta (key, value) SELECT DISTINCT 'seeded:' || site_id, 'migrated' FROM form_cases").run();
      db.prepare("DELETE FROM meta WHERE key = 'seeded'").run();
    }
    if (version < 2) giveProductsIds(db);
    db.pragma(`user_version = ${LAYOUT}`);
  }).immediate();
}

/**
 * Layout 2: products created before it gain `updated_at` (their creation) and ids on their attributes
 * and options, so every product reads and updates alike.
 */
function giveProductsIds(db: Database.Database) {
  const has =
    (db.prepare("SELECT COUNT(*) AS n FROM pragma_table_info('products') WHERE name = 'updated_at'").get() as { n: number }).n > 0;
  if (!has) db.exec('ALTER TABLE products ADD COLUMN updated_at INTEGER');
  db.exec('UPDATE products SET updated_at = created_at WHERE updated_at IS NULL');
  const allocate = itemIds(db);
  const rows = db.prepare<[], { id: number; body: string }>('SELECT id, body FROM products WHERE body LIKE \'%"attributes"%\'').all();
  const write = db.prepare<[string, number]>('UPDATE products SET body = ? WHERE id = ?');
  for (const row of rows) {
    const body = JSON.parse(row.body) as { attributes?: { id?: string; items?: { id?: string }[] }[] };
    if (!Array.isArray(body.attributes)) continue;
    const needed = body.attributes.reduce((n, a) => n + (a.id ? 0 : 1) + (a.items ?? []).filter((o) => !o.id).length, 0);
    if (needed === 0) continue;
    const next = allocate(needed);
    const attributes = body.attributes.map((a) => ({
      ...(a.id ? {} : { id: next() }),
      ...a,
      ...(a.items ? { items: a.items.map((o) => ({ ...(o.id ? {} : { id: next() }), ...o })) } : {}),
    }));
    write.run(JSON.stringify({ ...body, attributes }), row.id);
  }
}

/** Takes `count` ids of the sequence at once (one statement), and hands them out one by one. */
function itemIds(db: Database.Database) {
  const take = db.prepare<[number], { last: number }>("UPDATE id_sequence SET last = last + ? WHERE name = 'item' RETURNING last");
  return (count: number) => {
    const last = take.get(count)?.last;
    if (last === undefined) throw new Error('The sandbox database has no id sequence.');
    let next = last - count + 1;
    return () => {
      if (next > last) throw new Error('More ids were used than taken.');
      return String(next++);
    };
  };
}

/** How many ids a new product's attributes and options need. */
const idsNeeded = (product: WireProduct) => (product.attributes ?? []).reduce((n, attribute) => n + 1 + (attribute.items?.length ?? 0), 0);

/** A new product's fields with an id on each attribute and option (first, as a record shows them). */
function givenIds(product: WireProduct, next: () => string): StoredProductBody {
  if (product.attributes === undefined) return product as StoredProductBody;
  return {
    ...product,
    attributes: product.attributes.map((attribute) => {
      const withId = { id: next(), ...attribute };
      return attribute.items === undefined ? withId : { ...withId, items: attribute.items.map((option) => ({ id: next(), ...option })) };
    }),
  } as StoredProductBody;
}

/** The SQL order of each sort type; products without the value (no release date) come last either way. */
const PRODUCT_SORT_SQL: Record<ProductListSortType, { value: string; nullable: boolean }> = {
  created_at: { value: 'created_at', nullable: false },
  updated_at: { value: 'updated_at', nullable: false },
  id: { value: 'id', nullable: false },
  name: { value: "json_extract(body, '$.name') COLLATE NOCASE", nullable: true },
  slug: { value: "json_extract(body, '$.slug')", nullable: true },
  release_date: { value: "CAST(json_extract(body, '$.release_date') AS INTEGER)", nullable: true },
  expiry_date: { value: "CAST(json_extract(body, '$.expiry_date') AS INTEGER)", nullable: true },
};

/**
 * Opens (and on first use creates) the database at `file`; `:memory:` gives a throwaway one. Each site of
 * `siteIds` that has never been seeded gets its demo cases: the first the full set, every other the
 * smaller second set (see seed.ts), and, unless `options.demoProducts` is false, the demo catalogue when it
 * has no products. WAL with synchronous=NORMAL: a committed write survives the process being killed.
 */
export function openStore(file: string, siteIds: readonly string[], options: StoreOptions = {}): SandboxStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    migrate(db);
    db.exec(LATE_SCHEMA);
  } catch (error) {
    db.close();
    throw error;
  }

  const insertCase = db.prepare<[string, string, string, string]>(
    'INSERT OR REPLACE INTO form_cases (site_id, form, id, record) VALUES (?, ?, ?, ?)',
  );
  const isSeeded = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?');
  const markSeeded = db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?)');
  const seedSite = db.transaction((siteId: string, set: SeedSet) => {
    const key = `seeded:${siteId}`;
    if (isSeeded.get(key)) return;
    for (const c of seedCases(set)) insertCase.run(siteId, c.form, c.id, JSON.stringify(c.record));
    markSeeded.run(key, String(Date.now()));
  });
  // The warranty claims came later than the first set: once per database, to the first site of the first
  // start that knows them (a database seeded before them gains them on its next start).
  const seedClaims = db.transaction((siteId: string) => {
    const key = 'seeded-warranty-claims';
    if (isSeeded.get(key)) return;
    for (const c of seedWarrantyClaims()) insertCase.run(siteId, c.form, c.id, JSON.stringify(c.record));
    markSeeded.run(key, siteId);
  });
  const allocate = itemIds(db);
  const insertProduct = db.prepare<[string, string | null, string, number, number]>(
    'INSERT INTO products (site_id, slug, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  /** One INSERT; a slug already used fails this statement alone (SQLite undoes the statement, not the transaction). */
  const insertOne = (siteId: string, product: WireProduct, createdAt: number, next: () => string): InsertResult => {
    const body = givenIds(product, next);
    try {
      const info = insertProduct.run(siteId, product.slug ?? null, JSON.stringify(body), createdAt, createdAt);
      return { ok: true, record: productRecord({ id: String(info.lastInsertRowid), siteId, createdAt, updatedAt: createdAt, body }) };
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        return { ok: false, reason: 'duplicate-slug' };
      }
      throw error;
    }
  };
  /** Products in the current transaction: the ids of all their attributes and options taken in one statement. */
  const insertAll = (items: readonly NewProduct[]) => {
    const now = Math.floor(Date.now() / 1000);
    const needed = items.reduce((n, item) => n + idsNeeded(item.product), 0);
    const next = needed > 0 ? allocate(needed) : () => String(allocate(1)());
    return items.map((item) => insertOne(item.siteId, item.product, item.createdAt ?? now, next));
  };
  // IMMEDIATE: the write lock is taken at the start, so a batch never fails half-way for want of it.
  const insertManyTransaction = db.transaction(insertAll);
  const insertMany = (items: readonly NewProduct[]) => insertManyTransaction.immediate(items);

  const hasProducts = db.prepare<[string], { n: number }>('SELECT 1 AS n FROM products WHERE site_id = ? LIMIT 1');
  const seedCatalogue = db.transaction((siteId: string, set: SeedSet) => {
    const key = `seeded-products:${siteId}`;
    if (isSeeded.get(key)) return;
    // A site that already has products (its own, made before the demo catalogue existed) is left as it is.
    if (!hasProducts.get(siteId)) insertAll(seedProducts(set).map(({ product, createdAt }) => ({ siteId, product, createdAt })));
    markSeeded.run(key, String(Date.now()));
  });
  [...new Set(siteIds)].forEach((siteId, index) => {
    seedSite.immediate(siteId, index === 0 ? 'full' : 'second');
    if (index === 0) seedClaims.immediate(siteId);
    if (options.demoProducts !== false) seedCatalogue.immediate(siteId, index === 0 ? 'full' : 'second');
  });
  const listing = caseListing(db);

  const selectCase = db.prepare<[string, string, string], { record: string }>(
    'SELECT record FROM form_cases WHERE site_id = ? AND form = ? AND id = ?',
  );
  const maxCaseId = db.prepare<[string], { max: number | null }>(
    'SELECT MAX(CAST(id AS INTEGER)) AS max FROM form_cases WHERE site_id = ?',
  );
  const insertCases = db.transaction((siteId: string, cases: readonly SeedCase[]) => {
    for (const c of cases) insertCase.run(siteId, c.form, c.id, JSON.stringify(c.record));
  });
  type Row = { id: number; site_id: string; body: string; created_at: number; updated_at: number | null };
  const rowOf = (row: Row): ProductRow => ({
    id: String(row.id),
    siteId: row.site_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? row.created_at,
    body: JSON.parse(row.body) as StoredProductBody,
  });
  const selectProducts = db.prepare<[string, number], Row>(
    'SELECT id, site_id, body, created_at, updated_at FROM products WHERE site_id = ? ORDER BY id DESC LIMIT ?',
  );
  const selectProduct = db.prepare<[string, string], Row>(
    'SELECT id, site_id, body, created_at, updated_at FROM products WHERE site_id = ? AND id = ?',
  );
  const writeProduct = db.prepare<[string | null, string, number, string, string]>(
    'UPDATE products SET slug = ?, body = ?, updated_at = ? WHERE site_id = ? AND id = ?',
  );
  const countProducts = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM products');
  const countSiteProducts = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM products WHERE site_id = ?');
  const maxProductId = db.prepare<[], { max: number | null }>('SELECT MAX(id) AS max FROM products');
  // One statement per order (7 sort types × 2 directions), prepared when first asked for.
  const pages = new Map<string, Database.Statement<[string, number, number], Row>>();
  const pageStatement = (sortType: ProductListSortType, sortOrder: 'asc' | 'desc') => {
    const key = `${sortType} ${sortOrder}`;
    let found = pages.get(key);
    if (!found) {
      const { value, nullable } = PRODUCT_SORT_SQL[sortType];
      const direction = sortOrder === 'asc' ? 'ASC' : 'DESC';
      const order = `${nullable ? `(${value}) IS NULL, ` : ''}${value} ${direction}, id ${direction}`;
      found = db.prepare<[string, number, number], Row>(
        `SELECT id, site_id, body, created_at, updated_at FROM products WHERE site_id = ? ORDER BY ${order} LIMIT ? OFFSET ?`,
      );
      pages.set(key, found);
    }
    return found;
  };

  const update = db.transaction(
    (siteId: string, id: string, change: (row: ProductRow, newId: () => string) => ProductChange<unknown>): UpdateResult<unknown> => {
      const found = selectProduct.get(siteId, id);
      if (!found) return { ok: false, reason: 'not-found' };
      const row = rowOf(found);
      const outcome = change(row, () => allocate(1)());
      if ('refused' in outcome) return { ok: false, reason: 'refused', refused: outcome.refused };
      const text = JSON.stringify(outcome.body);
      if (canonicalJson(outcome.body) === canonicalJson(row.body)) return { ok: true, row, changed: false };
      const updatedAt = Math.max(Math.floor(Date.now() / 1000), row.updatedAt + 1);
      try {
        writeProduct.run(outcome.body.slug ?? null, text, updatedAt, siteId, id);
      } catch (error) {
        if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE')
          return { ok: false, reason: 'duplicate-slug' };
        throw error;
      }
      return { ok: true, row: { ...row, updatedAt, body: outcome.body }, changed: true };
    },
  );

  return {
    listCases: listing,
    getCase(siteId, form, id) {
      const row = selectCase.get(siteId, form, id);
      return row ? (JSON.parse(row.record) as FormCase) : undefined;
    },
    getCaseText: (siteId, form, id) => selectCase.get(siteId, form, id)?.record,
    addCase(siteId, form, record) {
      const id = typeof record.id === 'string' && record.id !== '' ? record.id : String((maxCaseId.get(siteId)?.max ?? 0) + 1);
      const stored = { ...record, id };
      // lossless-json writes the exact numbers the record was read with (see the /__sandbox/cases helper).
      insertCase.run(siteId, form, id, stringify(stored) ?? '{}');
      return stored;
    },
    addCases: (siteId, cases) => insertCases.immediate(siteId, cases),
    maxCaseId: (siteId) => maxCaseId.get(siteId)?.max ?? 0,
    insertProduct: (siteId, product) => insertMany([{ siteId, product }])[0]!,
    insertProducts: (items) => insertMany(items),
    listProducts(siteId, limit = 100) {
      return selectProducts.all(siteId, limit).map((found) => {
        const row = rowOf(found);
        return { id: row.id, site_id: row.siteId, created_at: row.createdAt, body: withoutIds(row.body), record: productRecord(row) };
      });
    },
    listProductPage(siteId, request) {
      const total = countSiteProducts.get(siteId)?.n ?? 0;
      if (total === 0) return { total, records: [] };
      const rows = pageStatement(request.sortType, request.sortOrder).all(siteId, request.perPage, (request.page - 1) * request.perPage);
      return { total, records: rows.map((row) => productRecord(rowOf(row))) };
    },
    getProduct(siteId, id) {
      const found = selectProduct.get(siteId, id);
      return found ? rowOf(found) : undefined;
    },
    updateProduct<R>(siteId: string, id: string, change: (row: ProductRow, newId: () => string) => ProductChange<R>) {
      // The refusal is the one `change` made: of its own type R.
      return update.immediate(siteId, id, change) as UpdateResult<R>;
    },
    maxProductId: () => maxProductId.get()?.max ?? 0,
    countProducts: (siteId) => (siteId === undefined ? countProducts.get() : countSiteProducts.get(siteId))?.n ?? 0,
    integrityCheck: () => String(db.pragma('integrity_check', { simple: true })),
    close: () => db.close(),
  };
}

/** Where a filter's key is in the record: the record's own id and times, else one of its `properties`. */
function fieldPath(key: string): string {
  return CASE_RECORD_KEYS.some((own) => own === key) ? `$.${key}` : `$.properties.${key}`;
}

/** A scalar as text, the way equality compares: strings as they are, numbers as written, booleans as words. */
const asText = (value: string | number | boolean) => (typeof value === 'string' ? value : String(value));

/** The text form of a JSON item of json_each, for equality. */
const ITEM_TEXT =
  "CASE type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'text' THEN value WHEN 'integer' THEN CAST(value AS TEXT) WHEN 'real' THEN CAST(value AS TEXT) END";
/** An item that is a number, or a string holding one (the platform writes many numbers as strings). */
const ITEM_IS_NUMBER = "(type IN ('integer', 'real') OR (type = 'text' AND value GLOB '[0-9]*' AND NOT value GLOB '*[^0-9.]*'))";

/**
 * The SQL of one condition and its parameters: it holds when the field, or any item of a list field,
 * satisfies every operator of it (so {"gt": a, "lt": b} is a range on one value). `updated_at` is the
 * creation time for a case that was never changed, as a case on the platform never is.
 */
function conditionSql(key: string, condition: CaseFilterCondition): { sql: string; params: (string | number)[] } {
  const path =
    key === 'updated_at' ? "CASE WHEN json_type(record, '$.updated_at') IS NULL THEN '$.created_at' ELSE '$.updated_at' END" : '?';
  const pathParams = key === 'updated_at' ? [] : [fieldPath(key)];
  const tests: string[] = [];
  const params: (string | number)[] = [];
  if (typeof condition !== 'object') {
    tests.push(`(${ITEM_TEXT}) = ?`);
    params.push(asText(condition));
  } else {
    for (const [operator, sign] of [
      ['gt', '>'],
      ['lt', '<'],
    ] as const) {
      const bound = condition[operator];
      if (typeof bound === 'number') {
        tests.push(`${ITEM_IS_NUMBER} AND CAST(value AS REAL) ${sign} ?`);
        params.push(bound);
      } else if (typeof bound === 'string') {
        tests.push(`type = 'text' AND value ${sign} ?`);
        params.push(bound);
      }
    }
    if (condition.contains !== undefined) {
      // lower() folds A-Z only: enough for names, e-mail addresses and words of English text.
      tests.push("type = 'text' AND instr(lower(value), lower(?)) > 0");
      params.push(condition.contains);
    }
  }
  const sql =
    `(COALESCE(json_type(record, ${path}), 'null') <> 'object' AND EXISTS (SELECT 1 FROM json_each(record, ${path}) ` +
    `WHERE type NOT IN ('object', 'array') AND ${tests.map((test) => `(${test})`).join(' AND ')}))`;
  return { sql, params: [...pathParams, ...pathParams, ...params] };
}

const SORT_SQL: Record<CaseListSortType, string> = {
  created_at: "json_extract(record, '$.created_at')",
  updated_at: "COALESCE(json_extract(record, '$.updated_at'), json_extract(record, '$.created_at'))",
  id: 'CAST(id AS INTEGER)',
};

/** The list operation's query: a count and a page, in SQL built from checked parts only (keys are field names). */
function caseListing(db: Database.Database): SandboxStore['listCases'] {
  // A filter's shape gives the SQL; the few shapes a session uses are prepared once.
  const prepared = new Map<string, Database.Statement<unknown[], { record: string }>>();
  const counted = new Map<string, Database.Statement<unknown[], { n: number }>>();
  const statement = <T>(cache: Map<string, Database.Statement<unknown[], T>>, sql: string) => {
    let found = cache.get(sql);
    if (!found) {
      if (cache.size >= 200) cache.clear();
      found = db.prepare<unknown[], T>(sql);
      cache.set(sql, found);
    }
    return found;
  };
  return (siteId, request) => {
    const where = ['site_id = ?', 'form = ?'];
    const params: (string | number)[] = [siteId, request.form];
    for (const [key, condition] of Object.entries(request.filter)) {
      const built = conditionSql(key, condition);
      where.push(built.sql);
      params.push(...built.params);
    }
    const from = `FROM form_cases WHERE ${where.join(' AND ')}`;
    const total = statement(counted, `SELECT COUNT(*) AS n ${from}`).get(...params)?.n ?? 0;
    if (total === 0) return { total, records: [] };
    const direction = request.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const page = statement(
      prepared,
      `SELECT record ${from} ORDER BY ${SORT_SQL[request.sortType]} ${direction}, CAST(id AS INTEGER) ${direction}, id ${direction} LIMIT ? OFFSET ?`,
    );
    const records = page.all(...params, request.perPage, (request.page - 1) * request.perPage).map((row) => row.record);
    return { total, records };
  };
}
