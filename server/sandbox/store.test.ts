import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../testing/test-helpers';
import { seedCases, seedProducts, WARRANTY_CLAIMS } from './seed';
import { openStore } from './store';

let dir: string;
let file: string;

beforeEach(() => {
  dir = tempDir('site-admin-store-');
  file = join(dir, 'sandbox.sqlite');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What the single-site sandbox of the previous version wrote: its tables, its seed, one `seeded` row. */
function writePreviousVersion(path: string, siteId: string) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE form_cases (site_id TEXT NOT NULL, form TEXT NOT NULL, id TEXT NOT NULL, record TEXT NOT NULL,
      PRIMARY KEY (site_id, form, id)) WITHOUT ROWID;
    CREATE TABLE products (id INTEGER PRIMARY KEY AUTOINCREMENT, site_id TEXT NOT NULL, slug TEXT, body TEXT NOT NULL,
      created_at INTEGER NOT NULL, UNIQUE (site_id, slug));
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `);
  const insert = db.prepare('INSERT INTO form_cases (site_id, form, id, record) VALUES (?, ?, ?, ?)');
  for (const c of seedCases()) insert.run(siteId, c.form, c.id, JSON.stringify(c.record));
  insert.run(siteId, '3', '90001', JSON.stringify({ id: '90001', name: 'form_3', note: 'added by hand' }));
  db.prepare("INSERT INTO meta (key, value) VALUES ('seeded', '1767225600000')").run();
  db.prepare('INSERT INTO products (site_id, slug, body, created_at) VALUES (?, ?, ?, ?)').run(
    siteId,
    'old-mug',
    JSON.stringify({ name: 'Old mug', slug: 'old-mug' }),
    1767225600,
  );
  db.close();
}

function casesPerSite(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare('SELECT site_id, COUNT(*) AS n FROM form_cases GROUP BY site_id').all() as { site_id: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.site_id, row.n]));
  } finally {
    db.close();
  }
}

describe('the sandbox database', () => {
  it('seeds each new site once: the first with the full set and the warranty claims, every other with the second set', () => {
    const store = openStore(file, ['1001', '1002', '1003']);
    store.close();
    const full = seedCases('full').length + WARRANTY_CLAIMS;
    const second = seedCases('second').length;
    expect(casesPerSite(file)).toEqual({ '1001': full, '1002': second, '1003': second });
    // Opened again, in another order and with a site more: only the new site is seeded.
    openStore(file, ['1002', '1001', '1004']).close();
    expect(casesPerSite(file)).toEqual({ '1001': full, '1002': second, '1003': second, '1004': second });
  });

  it('takes over a database of the single-site sandbox: its rows stay with their site, and only new sites are seeded', () => {
    writePreviousVersion(file, '1001');
    const store = openStore(file, ['1001', '1002']);
    try {
      // The first site, seeded before the warranty claims existed, gains them.
      expect(casesPerSite(file)).toEqual({ '1001': seedCases().length + 1 + WARRANTY_CLAIMS, '1002': seedCases('second').length });
      expect(store.getCase('1001', '3', '90001')).toMatchObject({ note: 'added by hand' });
      // The site that had a product keeps just it (no demo catalogue over a site's own); the new site gets the catalogue.
      expect(store.listProducts('1001').map((p) => p.body.slug)).toEqual(['old-mug']);
      expect(store.countProducts('1002')).toBe(seedProducts('second').length);
      // The old product reads as any other: its dates, updated_at being its creation.
      expect(store.listProducts('1001')[0]?.record).toEqual({
        id: '1',
        name: 'Old mug',
        slug: 'old-mug',
        created_at: '1767225600',
        updated_at: '1767225600',
      });
      // The old product's slug is still taken on its site, and free on the other.
      expect(store.insertProduct('1001', { name: 'Mug', enabled: 'true', slug: 'old-mug' })).toEqual({
        ok: false,
        reason: 'duplicate-slug',
      });
      expect(store.insertProduct('1002', { name: 'Mug', enabled: 'true', slug: 'old-mug' }).ok).toBe(true);
      expect(store.integrityCheck()).toBe('ok');
    } finally {
      store.close();
    }
    // Migrated once: opening it again changes nothing.
    openStore(file, ['1001', '1002']).close();
    expect(casesPerSite(file)).toEqual({ '1001': seedCases().length + 1 + WARRANTY_CLAIMS, '1002': seedCases('second').length });
  });

  it('gives the products of an earlier layout ids on their attributes and options, and an updated_at, once', () => {
    writePreviousVersion(file, '1001');
    const db = new Database(file);
    const attributes = [{ name: 'Size', items: [{ name: 'S' }, { name: 'M' }] }, { name: 'Colour' }];
    db.prepare('INSERT INTO products (site_id, slug, body, created_at) VALUES (?, ?, ?, ?)').run(
      '1001',
      'old-throw',
      JSON.stringify({ name: 'Old throw', slug: 'old-throw', attributes }),
      1767312000,
    );
    db.close();
    const store = openStore(file, ['1001']);
    let migrated: unknown;
    try {
      const record = store.listProducts('1001')[0]!.record;
      migrated = record;
      expect(record).toEqual({
        id: '2',
        name: 'Old throw',
        slug: 'old-throw',
        attributes: [
          {
            id: expect.any(String),
            name: 'Size',
            items: [
              { id: expect.any(String), name: 'S' },
              { id: expect.any(String), name: 'M' },
            ],
          },
          { id: expect.any(String), name: 'Colour' },
        ],
        created_at: '1767312000',
        updated_at: '1767312000',
      });
      const ids = [record.attributes![0]!.id, ...record.attributes![0]!.items!.map((item) => item.id), record.attributes![1]!.id];
      expect(new Set(ids).size).toBe(4);
      // A product created now takes ids after them.
      const created = store.insertProduct('1001', { name: 'New', attributes: [{ name: 'A' }] });
      expect(created.ok && Number(created.record.attributes![0]!.id)).toBeGreaterThan(Math.max(...ids.map(Number)));
    } finally {
      store.close();
    }
    // Migrated once: opened again, the same ids.
    const again = openStore(file, ['1001']);
    try {
      expect(again.listProducts('1001', 10).find((product) => product.body.slug === 'old-throw')?.record).toEqual(migrated);
    } finally {
      again.close();
    }
  });

  it('keeps the site of the old database seeded even when it is no longer the first', () => {
    writePreviousVersion(file, '1001');
    openStore(file, ['2000', '1001']).close();
    expect(casesPerSite(file)).toEqual({ '1001': seedCases().length + 1, '2000': seedCases().length + WARRANTY_CLAIMS });
  });

  it('refuses, saying why, a database written by a newer layout', () => {
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openStore(file, ['1001'])).toThrow(/newer site-admin.*delete the file/s);
  });
});

describe('a batch of creates', () => {
  it('commits several products in one transaction, each with its own result; a slug taken in the batch fails that product alone', () => {
    const store = openStore(file, ['1001', '1002'], { demoProducts: false });
    try {
      const results = store.insertProducts([
        { siteId: '1001', product: { name: 'A', slug: 'mug' } },
        { siteId: '1001', product: { name: 'B', slug: 'mug' } },
        { siteId: '1002', product: { name: 'C', slug: 'mug' } },
        { siteId: '1001', product: { name: 'D' } },
      ]);
      expect(results.map((r) => r.ok)).toEqual([true, false, true, true]);
      expect(results[1]).toEqual({ ok: false, reason: 'duplicate-slug' });
      const ids = results.flatMap((r) => (r.ok ? [r.record.id] : []));
      expect(new Set(ids).size).toBe(3);
      expect(store.countProducts('1001')).toBe(2);
      expect(store.countProducts('1002')).toBe(1);
    } finally {
      store.close();
    }
    // Committed: another connection sees every product of the batch.
    const db = new Database(file, { readonly: true });
    expect(db.prepare("SELECT json_extract(body, '$.name') AS name FROM products ORDER BY name").all()).toEqual([
      { name: 'A' },
      { name: 'C' },
      { name: 'D' },
    ]);
    db.close();
  });
});
