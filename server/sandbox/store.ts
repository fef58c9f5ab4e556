/**
 * The sandbox's storage: form cases and created products in SQLite. Knows nothing about HTTP.
 */
import Database from 'better-sqlite3';
import { stringify } from 'lossless-json';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CaseFilter, CaseFilterCondition, CaseListSortOrder, CaseListSortType } from '../../src/contract/case-list';
import { CASE_RECORD_KEYS } from '../../src/contract/case-list';
import type { FormCase, WireProduct } from '../../src/contract/site-api';
import { seedCases, seedWarrantyClaims, type SeedCase, type SeedSet } from './seed';

export interface StoredProduct {
  id: string;
  site_id: string;
  created_at: number;
  body: WireProduct;
}

export type InsertResult = { ok: true; record: Record<string, unknown> } | { ok: false; reason: 'duplicate-slug' };

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
  insertProduct(siteId: string, product: WireProduct): InsertResult;
  /**
   * Several products in one transaction, each with its own result (a slug already used, also by an
   * earlier one of the same batch, fails that product alone). Committed when this returns; should the
   * transaction fail, none is stored and it throws.
   */
  insertProducts(items: readonly { siteId: string; product: WireProduct }[]): InsertResult[];
  listProducts(siteId: string, limit?: number): StoredProduct[];
  /** Products of one site, or of every site. */
  countProducts(siteId?: string): number;
  integrityCheck(): string;
  close(): void;
}

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
  UNIQUE (site_id, slug)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS form_cases_by_time ON form_cases (site_id, form, json_extract(record, '$.created_at'), CAST(id AS INTEGER));
`;

/**
 * The layout of the database, in SQLite's user_version. 0: a database of the single-site sandbox (or a
 * new one), whose meta row `seeded` said that its one site had its demo cases; 1: one `seeded:<site id>`
 * row per site, so each site of a profile is seeded once, whenever it first appears.
 */
const LAYOUT = 1;

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
    if (db.prepare("SELECT 1 FROM meta WHERE key = 'seeded'").get()) {
      // The single-site sandbox seeded the one site it served: every site that has cases was seeded.
      db.prepare("INSERT OR IGNORE INTO meta (key, value) SELECT DISTINCT 'seeded:' || site_id, 'migrated' FROM form_cases").run();
      db.prepare("DELETE FROM meta WHERE key = 'seeded'").run();
    }
    db.pragma(`user_version = ${LAYOUT}`);
  }).immediate();
}

/**
 * Opens (and on first use creates) the database at `file`; `:memory:` gives a throwaway one. Each site of
 * `siteIds` that has never been seeded gets its demo cases: the first the full set, every other the
 * smaller second set (see seed.ts). WAL with synchronous=NORMAL: a committed write survives the process
 * being killed.
 */
export function openStore(file: string, siteIds: readonly string[]): SandboxStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    migrate(db);
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
  [...new Set(siteIds)].forEach((siteId, index) => {
    seedSite.immediate(siteId, index === 0 ? 'full' : 'second');
    if (index === 0) seedClaims.immediate(siteId);
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
  const insertProduct = db.prepare<[string, string | null, string, number]>(
    'INSERT INTO products (site_id, slug, body, created_at) VALUES (?, ?, ?, ?)',
  );
  const selectProducts = db.prepare<[string, number], { id: number; site_id: string; body: string; created_at: number }>(
    'SELECT id, site_id, body, created_at FROM products WHERE site_id = ? ORDER BY id DESC LIMIT ?',
  );
  const countProducts = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM products');
  const countSiteProducts = db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM products WHERE site_id = ?');

  /** One INSERT; a slug already used fails this statement alone (SQLite undoes the statement, not the transaction). */
  const insertOne = (siteId: string, product: WireProduct, createdAt: number): InsertResult => {
    try {
      const info = insertProduct.run(siteId, product.slug ?? null, JSON.stringify(product), createdAt);
      return { ok: true, record: { id: String(info.lastInsertRowid), ...product } };
    } catch (error) {
      if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
        return { ok: false, reason: 'duplicate-slug' };
      }
      throw error;
    }
  };
  // IMMEDIATE: the write lock is taken at the start, so a batch never fails half-way for want of it.
  const insertManyTransaction = db.transaction((items: readonly { siteId: string; product: WireProduct }[]) => {
    const createdAt = Math.floor(Date.now() / 1000);
    return items.map((item) => insertOne(item.siteId, item.product, createdAt));
  });
  const insertMany = (items: readonly { siteId: string; product: WireProduct }[]) => insertManyTransaction.immediate(items);

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
    insertProduct: (siteId, product) => insertOne(siteId, product, Math.floor(Date.now() / 1000)),
    insertProducts: (items) => insertMany(items),
    listProducts(siteId, limit = 100) {
      return selectProducts.all(siteId, limit).map((row) => ({
        id: String(row.id),
        site_id: row.site_id,
        created_at: row.created_at,
        body: JSON.parse(row.body) as WireProduct,
      }));
    },
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
