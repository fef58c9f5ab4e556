/**
 * The catalogue's rows: the platform's pages of the site's products, 500 a page, in the order asked for.
 *
 * Without a search the list is the platform's: any row can be reached by scrolling, and only page 1 (its
 * total sizes the list) and the pages of the rows on screen are asked for. The platform documents no
 * filter for products, so a search is applied here, to the pages read: while one is typed, the pages are
 * read in order, one after another in the background, and the list is the products of those read that
 * match, with how many have been searched of how many there are.
 */
import { useQueries, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue, useMemo } from 'react';
import { cataloguePageQueryOptions, pageOfRow, CATALOGUE_PAGE_SIZE, type CataloguePage, type CatalogueSource } from './catalogue-query';
import { matchesSearch, type CatalogueProduct } from './catalogue-rows';

export interface CatalogueRows {
  /** Rows in the list (as far as is known). */
  count: number;
  /** Row `index`, or undefined while its page is on its way. */
  rowAt: (index: number) => CatalogueProduct | undefined;
  /** The platform's first page, once here (its total, or that the site has no products, or what could not be read). */
  first: CataloguePage | undefined;
  /** A page that could not be read as products: the first such. */
  unreadable: Extract<CataloguePage, { kind: 'unreadable' }> | undefined;
  /** A page of the list that failed, with its retry. */
  failed: UseQueryResult<CataloguePage> | undefined;
  /** With a search: products searched so far, whether more pages are being read, and the matches. */
  search: { searched: number; reading: boolean } | null;
}

/** The furthest row known: the total where the envelope has one, else what the pages so far show. */
function rowCount(pages: readonly (CataloguePage | undefined)[]): number {
  let count = 0;
  for (const page of pages) {
    if (page?.kind !== 'page') continue;
    if (page.total !== null) return page.total;
    count = Math.max(count, (page.page - 1) * CATALOGUE_PAGE_SIZE + page.products.length + (page.hasMore ? 1 : 0));
  }
  return count;
}

const combine = (results: UseQueryResult<CataloguePage>[]) => ({
  data: results.map((result) => result.data),
  pending: results.some((result) => result.isPending),
  failed: results.find((result) => result.isError),
});

/**
 * The rows of the catalogue of `source`, searched by `query` (in searchForm; '' for none). `range` is the
 * first and last row on screen; without a search only their pages are read.
 */
export function useCatalogueRows(source: CatalogueSource, query: string, range: readonly [number, number]): CatalogueRows {
  const searching = query !== '';
  // For a search, pages 1 to `readTo` are read: as far as the pages here say there are more, and one more.
  // Each page's arrival renders this again (the queries below), which asks for the next.
  const client = useQueryClient();
  let readTo = 1;
  while (searching) {
    const page = client.getQueryData(cataloguePageQueryOptions(source, readTo).queryKey);
    if (page?.kind !== 'page' || !page.hasMore) break;
    readTo += 1;
  }
  const pages = useMemo(
    () => (searching ? Array.from({ length: readTo }, (_, i) => i + 1) : [...new Set([1, pageOfRow(range[0]), pageOfRow(range[1])])]),
    [searching, readTo, range],
  );
  const lists = useQueries({ queries: pages.map((page) => cataloguePageQueryOptions(source, page)), combine });

  // Pages and the search are put on screen in a transition: typing stays responsive while thousands of
  // products are searched, and the pages asked for travel with their answers.
  const now = useMemo(() => ({ pages, data: lists.data, query }), [pages, lists.data, query]);
  const shown = useDeferredValue(now);

  const matches = useMemo(() => {
    if (shown.query === '') return null;
    const rows: CatalogueProduct[] = [];
    const seen = new Set<string>();
    let searched = 0;
    // Pages in order, as far as they are read without a gap; a product that moved between two pages as they
    // were read (a product created meanwhile) is counted once.
    for (const page of shown.data) {
      if (page?.kind !== 'page') break;
      for (const product of page.products) {
        if (seen.has(product.id)) continue;
        seen.add(product.id);
        searched += 1;
        if (matchesSearch(product, shown.query)) rows.push(product);
      }
    }
    return { rows, searched };
  }, [shown]);

  const first = shown.data[0] ?? lists.data[0];
  const unreadable = lists.data.find((page): page is Extract<CataloguePage, { kind: 'unreadable' }> => page?.kind === 'unreadable');
  if (matches) {
    const last = shown.data[shown.data.length - 1];
    return {
      count: matches.rows.length,
      rowAt: (index) => matches.rows[index],
      first,
      unreadable,
      failed: lists.failed,
      search: { searched: matches.searched, reading: !lists.failed && (lists.pending || (last?.kind === 'page' && last.hasMore)) },
    };
  }
  const byPage = new Map(shown.pages.map((page, i) => [page, shown.data[i]]));
  return {
    count: rowCount(shown.data),
    rowAt: (index) => {
      const page = byPage.get(pageOfRow(index));
      return page?.kind === 'page' ? page.products[index % CATALOGUE_PAGE_SIZE] : undefined;
    },
    first,
    unreadable,
    failed: lists.failed,
    search: null,
  };
}
