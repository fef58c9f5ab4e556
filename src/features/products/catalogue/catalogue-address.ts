/**
 * What a catalogue address holds (`/catalogue?sort=name&order=asc&q=linen&at=12`): the order the platform
 * sorts the products in, the search typed, and the row last opened. A shared or reloaded link opens the
 * same sorted, searched list at the same row; Back from a product returns to it.
 */
import { pathTo, withQuery, type Href } from '@/lib/paths';

/** The orders a person can pick: each a `sort_type` of the platform's list (src/contract/products.ts). */
export const CATALOGUE_SORTS = ['created_at', 'name', 'slug', 'release_date', 'expiry_date'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];
export type CatalogueOrder = 'asc' | 'desc';

export interface CatalogueAddress {
  sort: CatalogueSort;
  order: CatalogueOrder;
  /** The search, as typed (matched against each product's name and slug). */
  q: string;
  /** The row (from 0) last opened or to show. */
  at: number;
}

/** The platform's own default order: the newest first. */
export const DEFAULT_CATALOGUE: CatalogueAddress = { sort: 'created_at', order: 'desc', q: '', at: 0 };

/** A search longer than this is cut: an address stays short enough to share. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The catalogue an address names. Anything not well formed is left at its default rather than refused: a
 * hand-edited link still opens the catalogue.
 */
export function readCatalogueAddress(search: string): CatalogueAddress {
  const params = new URLSearchParams(search);
  const sort = CATALOGUE_SORTS.find((known) => known === params.get('sort')) ?? DEFAULT_CATALOGUE.sort;
  const order = params.get('order');
  const at = Number(params.get('at'));
  return {
    sort,
    order: order === 'asc' || order === 'desc' ? order : sort === DEFAULT_CATALOGUE.sort ? DEFAULT_CATALOGUE.order : 'asc',
    q: (params.get('q') ?? '').slice(0, MAX_SEARCH_LENGTH),
    at: params.get('at') !== null && Number.isSafeInteger(at) && at >= 0 ? at : 0,
  };
}

/** The catalogue's address, leaving out what is the default, in a fixed order. */
export function catalogueHref(address: CatalogueAddress): Href<'catalogue'> {
  const params = new URLSearchParams();
  if (address.sort !== DEFAULT_CATALOGUE.sort || address.order !== DEFAULT_CATALOGUE.order) {
    params.set('sort', address.sort);
    params.set('order', address.order);
  }
  if (address.q !== '') params.set('q', address.q);
  if (address.at > 0) params.set('at', String(address.at));
  return withQuery(pathTo('catalogue'), params);
}

/** Each order a person can pick, in words, in the order the picker lists them. */
export const SORT_CHOICES: readonly { sort: CatalogueSort; order: CatalogueOrder; label: string; phrase: string }[] = [
  { sort: 'created_at', order: 'desc', label: 'Newest first', phrase: 'newest first' },
  { sort: 'created_at', order: 'asc', label: 'Oldest first', phrase: 'oldest first' },
  { sort: 'name', order: 'asc', label: 'Name, A to Z', phrase: 'by name, A to Z' },
  { sort: 'name', order: 'desc', label: 'Name, Z to A', phrase: 'by name, Z to A' },
  { sort: 'slug', order: 'asc', label: 'Slug, A to Z', phrase: 'by slug, A to Z' },
  { sort: 'slug', order: 'desc', label: 'Slug, Z to A', phrase: 'by slug, Z to A' },
  { sort: 'release_date', order: 'asc', label: 'Release date, earliest first', phrase: 'by release date, earliest first' },
  { sort: 'release_date', order: 'desc', label: 'Release date, latest first', phrase: 'by release date, latest first' },
  { sort: 'expiry_date', order: 'asc', label: 'Expiry date, earliest first', phrase: 'by expiry date, earliest first' },
  { sort: 'expiry_date', order: 'desc', label: 'Expiry date, latest first', phrase: 'by expiry date, latest first' },
];

/** The order in a sentence: "by name, A to Z". */
export const sortPhrase = (address: Pick<CatalogueAddress, 'sort' | 'order'>): string =>
  SORT_CHOICES.find((choice) => choice.sort === address.sort && choice.order === address.order)?.phrase ?? 'newest first';
