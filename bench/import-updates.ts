/**
 * An import of updates checked: 1,000 products of the site (an attribute of 10 options each, with ids, as
 * the catalogue's read gives them) and a file of 10,000 option rows that changes every product's price and
 * every option's added price, matched by slug, options by name. The dry run's whole check (checkImport, the
 * function the worker runs: grouping, each row's form opened from its product with the cells typed over
 * it, the editor's validation, and diffProduct's changes and body) timed here in Node, CPU time of this
 * process and wall time, median of the rounds after one unmeasured warm-up. The catalogue's read and its
 * fingerprints are the page's, before the check, and are left out.
 */
import { cpuUsage } from 'node:process';
import { productFingerprint, readProductRecord } from '../src/contract/products';
import { optionPriceKey, productPriceKey } from '../src/contract/site-api';
import { settingsForLocale } from '../src/features/products/model/codec';
import { checkImport } from '../src/features/products/import/check';
import { mappingOf, matchColumns } from '../src/features/products/import/columns';
import { parseSheet } from '../src/features/products/import/parse';
import type { CatalogueProduct } from '../src/features/products/import/updates';
import { median, round } from './stats';

export interface ImportUpdateFigures {
  products: number;
  rows: number;
  /** Updates the check found (every product changes), and changes it listed in all. */
  updates: number;
  changes: number;
  wallMs: number;
  cpuMs: number;
  rounds: number;
}

const PRODUCTS = 1000;
const OPTIONS = 10;
const PRICE = productPriceKey('usd', 1);
const ADDED = optionPriceKey('usd', 1);

async function catalogue(): Promise<Map<string, CatalogueProduct>> {
  const bySlug = new Map<string, CatalogueProduct>();
  for (let p = 0; p < PRODUCTS; p += 1) {
    const json = {
      id: String(100000 + p),
      name: `Product ${p}`,
      slug: `bench-update-${p}`,
      enabled: 'true',
      [PRICE]: String(p * 100 + 99),
      attributes: [
        {
          id: String(200000 + p),
          name: 'Size',
          enabled: 'true',
          items: Array.from({ length: OPTIONS }, (_, o) => ({
            id: String(300000 + p * OPTIONS + o),
            name: `Option ${o}`,
            enabled: 'true',
            [ADDED]: String(o * 100),
          })),
        },
      ],
    };
    const read = readProductRecord(json);
    if (!read.ok) throw new Error(read.problem);
    bySlug.set(json.slug, {
      id: json.id,
      slug: json.slug,
      record: read.record,
      unknown: read.unknown,
      fingerprint: await productFingerprint(json),
    });
  }
  return bySlug;
}

/** Every product's price and every option's added price one more than the site has. */
function updateFile(): string {
  const lines = ['Slug,USD Price,Attribute name,Option name,USD Added to price'];
  for (let p = 0; p < PRODUCTS; p += 1) {
    for (let o = 0; o < OPTIONS; o += 1) {
      lines.push(
        [o === 0 ? `bench-update-${p}` : '', o === 0 ? `${p + 1}.99` : '', o === 0 ? 'Size' : '', `Option ${o}`, `${o + 1}.00`].join(','),
      );
    }
  }
  return lines.join('\r\n');
}

export async function runImportUpdateCheck(rounds: number, log: (line: string) => void): Promise<ImportUpdateFigures> {
  const settings = settingsForLocale('en-US');
  const sheet = parseSheet(updateFile());
  const mapping = mappingOf(matchColumns(sheet.headers, settings.fields));
  if (mapping.some((m) => m === null)) throw new Error('The update file’s columns did not all match');
  const context = { settings, site: undefined, createdSlugs: new Set<string>(), catalogue: await catalogue() };
  const once = () => {
    const wallStart = performance.now();
    const cpuStart = cpuUsage();
    const result = checkImport(sheet.rows, mapping, {}, context);
    const cpu = cpuUsage(cpuStart);
    return { result, wallMs: performance.now() - wallStart, cpuMs: (cpu.user + cpu.system) / 1000 };
  };
  const warm = once().result; // Unmeasured.
  const updates = warm.products.filter((p) => p.action.kind === 'update' && p.problems.length === 0);
  if (updates.length !== PRODUCTS) throw new Error(`Expected ${PRODUCTS} updates without problems, the check found ${updates.length}`);
  const changes = updates.reduce((sum, p) => sum + (p.action.kind === 'update' ? p.action.changes.length : 0), 0);
  const runs: { wallMs: number; cpuMs: number }[] = [];
  for (let r = 0; r < rounds; r += 1) {
    const { wallMs, cpuMs } = once();
    log(`  updates check round ${r + 1}/${rounds}: ${Math.round(wallMs)} ms (CPU ${Math.round(cpuMs)} ms)`);
    runs.push({ wallMs, cpuMs });
  }
  return {
    products: PRODUCTS,
    rows: PRODUCTS * OPTIONS,
    updates: updates.length,
    changes,
    wallMs: round(median(runs.map((r) => r.wallMs))),
    cpuMs: round(median(runs.map((r) => r.cpuMs))),
    rounds,
  };
}
