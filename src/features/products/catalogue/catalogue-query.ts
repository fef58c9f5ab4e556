/**
 * A page of the catalogue: one request of the platform's list (`GET /ecommerce/products`, 500 a page, the
 * platform's most), sorted by the platform, naming only the columns the catalogue shows, read into rows.
 */
import { queryOptions } from '@tanstack/react-query';
import { PRODUCT_LIST_MAX_PER_PAGE } from '@/contract/products';
import type { Currency } from '@/contract/site-api';
import { listProducts, type ProductReading } from '../product-api';
import type { CatalogueOrder, CatalogueSort } from './catalogue-address';
import { catalogueProperties, readCatalogueItem, type CatalogueProduct } from './catalogue-rows';

export const CATALOGUE_PAGE_SIZE = PRODUCT_LIST_MAX_PER_PAGE;

export type CataloguePage =
  | {
      kind: 'page';
      products: CatalogueProduct[];
      /** Products in the whole catalogue; null when the site's envelope carries no total. */
      total: number | null;
      page: number;
      /** Whether a page after this one may hold products: by the total, or without one, by a full page. */
      hasMore: boolean;
    }
  /** The platform's 404: the site has no products. */
  | { kind: 'empty' }
  /** An answer the catalogue cannot show: why, and what arrived (the answer, or the item that is not a product). */
  | { kind: 'unreadable'; problem: string; text: string; what: 'answer' | 'items' | 'item' };

/** The page (from 1) that holds row `index` (from 0). */
export const pageOfRow = (index: number): number => Math.floor(index / CATALOGUE_PAGE_SIZE) + 1;

/** Every query of a site's catalogue starts with this key: an update of a product can mark them all stale at once. */
export const catalogueKeyOf = (site: string) => ['catalogue', site] as const;

export interface CatalogueSource {
  site: string;
  reading: ProductReading;
  /** The site's first currency: its tier-1 price is the catalogue's price column. */
  currency: Currency;
  sort: CatalogueSort;
  order: CatalogueOrder;
}

export async function readCataloguePage(source: CatalogueSource, page: number, signal?: AbortSignal): Promise<CataloguePage> {
  const { reading, currency } = source;
  const answer = await listProducts(
    {
      per_page: CATALOGUE_PAGE_SIZE,
      page,
      sort_type: source.sort,
      sort_order: source.order,
      properties: catalogueProperties(reading.shape.id, currency),
    },
    reading,
    signal,
  );
  if (answer.kind !== 'page') return answer.kind === 'empty' ? answer : { ...answer, what: 'answer' };
  const { items, total } = answer.content;
  const unreadable = (problem: string) =>
    ({ kind: 'unreadable', problem, text: JSON.stringify(answer.content.items, null, 2), what: 'items' }) as const;
  if (answer.content.page !== null && answer.content.page !== page)
    return unreadable(`it is page ${answer.content.page}, not page ${page} as asked`);
  if (items.length > CATALOGUE_PAGE_SIZE)
    return unreadable(`it holds ${items.length} products, more than the ${CATALOGUE_PAGE_SIZE} asked for`);
  const products: CatalogueProduct[] = [];
  for (const [index, item] of items.entries()) {
    const read = readCatalogueItem(item, reading.shape.id, currency);
    if (!read.ok) {
      return {
        kind: 'unreadable',
        problem: `product ${(page - 1) * CATALOGUE_PAGE_SIZE + index + 1} of the list cannot be opened: ${read.problem}`,
        text: JSON.stringify(item, null, 2),
        what: 'item',
      };
    }
    products.push(read.product);
  }
  return {
    kind: 'page',
    products,
    total,
    page,
    hasMore: total !== null ? page * CATALOGUE_PAGE_SIZE < total : items.length === CATALOGUE_PAGE_SIZE,
  };
}

export function cataloguePageQueryOptions(source: CatalogueSource, page: number) {
  return queryOptions({
    queryKey: [...catalogueKeyOf(source.site), source, page] as const,
    queryFn: ({ signal }) => readCataloguePage(source, page, signal),
    // A catalogue changes by people's edits, not by the second: pages read are shown again without asking for
    // 30 s (a search reads them all; a window coming back into focus should not read them all again).
    staleTime: 30_000,
  });
}
