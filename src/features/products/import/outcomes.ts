/**
 * What became of each product, in words: for the grid's status column, the counts and the report.
 */
import type { ErrorDetail } from '@/contract/site-api';
import type { CheckedProduct } from './check';
import type { ReportLine } from './csv-files';
import type { ProductStatus } from './import-store';

/** A product's state in the import: its stored status, or what the dry run says about sending it. */
export type ProductState = ProductStatus['status'] | 'ready' | 'problems';

export function stateOf(product: CheckedProduct, statuses: Readonly<Record<string, ProductStatus>>): ProductState {
  const status = statuses[String(product.key)];
  if (status) return status.status;
  return product.problems.length > 0 ? 'problems' : 'ready';
}

export const STATE_LABELS: Record<ProductState, string> = {
  ready: 'Ready',
  problems: 'Has problems',
  sending: 'Sending…',
  created: 'Created',
  rejected: 'Rejected',
  unknown: 'Outcome unknown',
  skipped: 'Skipped',
};

export const detailsText = (details: readonly ErrorDetail[]) =>
  details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message)).join('; ');

/** The report's line for every row of every product. */
export function reportLines(
  products: readonly CheckedProduct[],
  statuses: Readonly<Record<string, ProductStatus>>,
): Map<number, ReportLine> {
  const lines = new Map<number, ReportLine>();
  for (const product of products) {
    const status = statuses[String(product.key)];
    let line: ReportLine;
    if (!status) {
      line =
        product.problems.length > 0
          ? { status: 'not sent', message: product.problems.map((p) => `row ${p.row + 2}: ${p.message}`).join('; '), answer: '' }
          : { status: 'not sent', message: '', answer: '' };
    } else if (status.status === 'created') line = { status: 'created', message: '', answer: JSON.stringify(status.answer) };
    else if (status.status === 'rejected') {
      line = {
        status: 'rejected',
        message: `${status.message}${status.details.length ? ` (${detailsText(status.details)})` : ''}`,
        answer: '',
      };
    } else if (status.status === 'unknown' || status.status === 'sending') {
      line = { status: 'unknown', message: status.status === 'unknown' ? status.message : '', answer: '' };
    } else line = { status: 'skipped', message: status.message, answer: '' };
    product.rows.forEach((row, i) => lines.set(row, i === 0 ? line : { ...line, answer: '' }));
  }
  return lines;
}

export interface Counts {
  products: number;
  ready: number;
  problems: number;
  created: number;
  rejected: number;
  unknown: number;
  skipped: number;
  sending: number;
}

export function countStates(products: readonly CheckedProduct[], statuses: Readonly<Record<string, ProductStatus>>): Counts {
  const counts: Counts = { products: products.length, ready: 0, problems: 0, created: 0, rejected: 0, unknown: 0, skipped: 0, sending: 0 };
  for (const product of products) counts[stateOf(product, statuses)] += 1;
  return counts;
}
