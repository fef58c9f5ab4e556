/** What the import grid shows: the rows the filter lets through, and the problems of each cell. */
import type { ProductSettings } from '../model/codec';
import { placeDetails, readerOf, type CheckResult } from './check';
import type { GridRow } from './import-grid';
import type { ImportFile, ImportWork } from './import-store';
import { stateOf } from './outcomes';

export type RowFilter = 'all' | 'problems' | 'unsent';

/** Problems by cell (`<row>:<column>`): the dry run's, and the platform's details of a rejected product. */
export function cellProblems(check: CheckResult, file: ImportFile, work: ImportWork, settings: ProductSettings): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (key: string, message: string) => map.set(key, [...(map.get(key) ?? []), message]);
  const cell = readerOf(file.rows, work.fixes);
  for (const product of check.products) {
    for (const p of product.problems) add(`${p.row}:${p.column ?? ''}`, p.message);
    const status = work.statuses[String(product.key)];
    if (status?.status === 'rejected') {
      for (const p of placeDetails(product.rows, work.mapping, cell, settings, status.details)) {
        if (p.column !== null) add(`${p.row}:${p.column}`, p.message);
      }
    }
  }
  return map;
}

/** Every row of the products the filter shows. */
export function visibleRows(check: CheckResult | null, statuses: ImportWork['statuses'], filter: RowFilter): GridRow[] {
  const list: GridRow[] = [];
  for (const product of check?.products ?? []) {
    const productState = stateOf(product, statuses);
    if (filter === 'problems' && productState !== 'problems' && productState !== 'rejected' && productState !== 'unknown') continue;
    if (filter === 'unsent' && productState === 'created') continue;
    product.rows.forEach((row, i) => list.push({ row, product, first: i === 0 }));
  }
  return list;
}
