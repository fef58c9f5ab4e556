/**
 * What became of each product, in words: for the grid's status column, the counts and the report.
 */
import type { ErrorDetail } from '@/contract/site-api';
import type { CheckedProduct } from './check';
import type { ReportLine } from './csv-files';
import type { ProductStatus } from './import-store';

/**
 * A product's state in the import: its stored status, or what the dry run says about sending it (ready,
 * with problems, or unchanged: a product of the site the file would not change, never sent).
 */
export type ProductState = ProductStatus['status'] | 'ready' | 'problems' | 'unchanged';

export function stateOf(product: CheckedProduct, statuses: Readonly<Record<string, ProductStatus>>): ProductState {
  const status = statuses[String(product.key)];
  if (status) return status.status;
  if (product.problems.length > 0) return 'problems';
  return product.action.kind === 'unchanged' ? 'unchanged' : 'ready';
}

/** What the dry run says a product is: "new", "update: name, USD, Price change", or "unchanged". */
export function actionText(product: CheckedProduct): string {
  const { action } = product;
  if (action.kind === 'new') return 'new';
  if (action.kind === 'unchanged') return 'unchanged';
  return `update: ${action.changes.map((change) => change.label).join(', ')} ${action.changes.length === 1 ? 'changes' : 'change'}`;
}

export const STATE_LABELS: Record<ProductState, string> = {
  ready: 'Ready',
  problems: 'Has problems',
  sending: 'Sending…',
  created: 'Created',
  updated: 'Updated',
  unchanged: 'Unchanged',
  conflict: 'Changed on the platform since the dry run',
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
          : product.action.kind === 'unchanged'
            ? { status: 'unchanged', message: 'The site’s product already has these values: nothing was sent', answer: '' }
            : { status: 'not sent', message: actionText(product), answer: '' };
    } else if (status.status === 'created') line = { status: 'created', message: '', answer: JSON.stringify(status.answer) };
    else if (status.status === 'updated') {
      // The body as sent (its ids and the fields it changed): the dry run's diff is of the product as it was then.
      line = { status: 'updated', message: `Update sent: ${JSON.stringify(status.body)}`, answer: JSON.stringify(status.answer) };
    } else if (status.status === 'conflict') line = { status: 'conflict', message: status.message, answer: '' };
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
  updated: number;
  /** Products of the site the file would not change: never sent. */
  unchanged: number;
  /** Updates not sent: the product changed on the platform since the dry run. */
  conflict: number;
  /** Of the ready ones, how many are updates (the rest are new). */
  updates: number;
  rejected: number;
  unknown: number;
  skipped: number;
  sending: number;
}

export function countStates(products: readonly CheckedProduct[], statuses: Readonly<Record<string, ProductStatus>>): Counts {
  const counts: Counts = {
    products: products.length,
    ready: 0,
    problems: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    conflict: 0,
    updates: 0,
    rejected: 0,
    unknown: 0,
    skipped: 0,
    sending: 0,
  };
  for (const product of products) {
    const state = stateOf(product, statuses);
    counts[state] += 1;
    if (state === 'ready' && product.action.kind === 'update') counts.updates += 1;
  }
  return counts;
}
