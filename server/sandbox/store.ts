/**
 * The sandbox's storage: form cases and created products in SQLite. Knows nothing about HTTP.
 */
import Database from 'better-sqlite3';
import { stringify } from 'lossless-json';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { FormCase, WireProduct } from '../../src/contract/site-api';
import { seedCases } from './seed';

export interface StoredProduct {
  id: string;
  site_id: string;
  created_at: number;
  body: WireProduct;
}

export type InsertResult = { ok: true; record: Record<string, unknown> } | { ok: false; reason: 'duplicate-slug' };

export interface SandboxStore {
  getCase(siteId: string, form: string, id: string): FormCase | undefined;
  /** The stored JSON text of a case, to send as it is. */
  getCaseText(siteId: string, form: string, id: string): string | undefined;
  addCase(siteId: string, form: string, record: FormCase): FormCase;
  insertProduct(siteId: string, product: WireProduct): InsertResult;
  listProducts(siteId: string, limit?: number): StoredProduct[];
  countProducts(): number;
  integrityCheck(): string;
  close(): void;
}

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
`;

/**
 * Opens (and on first use creates and seeds) the database at `file`; `:memory:` gives a throwaway one.
 * WAL with synchronous=NORMAL: a committed write survives the process being killed.
 */
export function openStore(file: string, seedSiteId: string): SandboxStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA);

  const insertCase = db.prepare<[string, string, string, string]>(
    'INSERT OR REPLACE INTO form_cases (site_id, form, id, record) VALUES (?, ?, ?, ?)',
  );
  const seeded = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'seeded'").get();
  if (!seeded) {
    db.transaction(() => {
      for (const c of seedCases()) insertCase.run(seedSiteId, c.form, c.id, JSON.stringify(c.record));
      db.prepare("INSERT INTO meta (key, value) VALUES ('seeded', ?)").run(String(Date.now()));
    })();
  }

  const selectCase = db.prepare<[string, string, string], { record: string }>(
    'SELECT record FROM form_cases WHERE site_id = ? AND form = ? AND id = ?',
  );
  const maxCaseId = db.prepare<[], { max: number | null }>('SELECT MAX(CAST(id AS INTEGER)) AS max FROM form_cases');
  const insertProduct = db.prepare<[string, string | null, string, number]>(
    'INSERT INTO products (site_id, slug, body, created_at) VALUES (?, ?, ?, ?)',
  );
  const selectProducts = db.prepare<[string, number], { id: number; site_id: string; body: string; created_at: number }>(
    'SELECT id, site_id, body, created_at FROM products WHERE site_id = ? ORDER BY id DESC LIMIT ?',
  );
  const countProducts = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM products');

  return {
    getCase(siteId, form, id) {
      const row = selectCase.get(siteId, form, id);
      return row ? (JSON.parse(row.record) as FormCase) : undefined;
    },
    getCaseText: (siteId, form, id) => selectCase.get(siteId, form, id)?.record,
    addCase(siteId, form, record) {
      const id = typeof record.id === 'string' && record.id !== '' ? record.id : String((maxCaseId.get()?.max ?? 0) + 1);
      const stored = { ...record, id };
      // lossless-json writes the exact numbers the record was read with (see the /__sandbox/cases helper).
      insertCase.run(siteId, form, id, stringify(stored) ?? '{}');
      return stored;
    },
    insertProduct(siteId, product) {
      const createdAt = Math.floor(Date.now() / 1000);
      try {
        const info = insertProduct.run(siteId, product.slug ?? null, JSON.stringify(product), createdAt);
        return { ok: true, record: { id: String(info.lastInsertRowid), ...product } };
      } catch (error) {
        if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE') {
          return { ok: false, reason: 'duplicate-slug' };
        }
        throw error;
      }
    },
    listProducts(siteId, limit = 100) {
      return selectProducts.all(siteId, limit).map((row) => ({
        id: String(row.id),
        site_id: row.site_id,
        created_at: row.created_at,
        body: JSON.parse(row.body) as WireProduct,
      }));
    },
    countProducts: () => countProducts.get()?.n ?? 0,
    integrityCheck: () => String(db.pragma('integrity_check', { simple: true })),
    close: () => db.close(),
  };
}
