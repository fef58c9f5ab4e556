/**
 * A product of the catalogue as its row shows it, read from an item of the platform's list, which carries
 * only the keys the catalogue names in `properties` (catalogueProperties). Pure: no React, no fetching.
 */
import { PLATFORM_ID_PATTERN } from '@/contract/products';
import { productPriceKey, type Currency } from '@/contract/site-api';
import { formatMoney, type PriceDecimals } from '../model/money';

export interface CatalogueProduct {
  id: string;
  name: string;
  slug: string;
  /** The platform writes booleans as "true" / "false"; null when the record has no `enabled`. */
  enabled: boolean | null;
  /** The tier-1 price of the site's first currency in minor units; a string when it is not a whole number (shown as it is). */
  price: number | string | null;
  /** Release and expiry in epoch seconds; a string when it is not a number of seconds (shown as it is). */
  release: number | string | null;
  expiry: number | string | null;
  /** Name and slug in the search's form (lower case, no accents), made once per product rather than per keystroke. */
  searchText: string;
}

/** The record's keys the catalogue asks the platform for: nothing else travels. */
export function catalogueProperties(idKey: string, currency: Currency): string[] {
  return [idKey, 'name', 'slug', 'enabled', productPriceKey(currency, 1), 'release_date', 'expiry_date'];
}

/** Text for the search: lower case, accents off, so "Crème" is found by "creme". */
export function searchForm(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase();
}

const scalarText = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;

/** A whole, non-negative number written as the platform writes numbers (a string of digits) or as a JSON number. */
function wholeNumber(value: unknown): number | string | null {
  if (value === undefined || value === null || value === '') return null;
  const text = scalarText(value);
  if (text === null) return JSON.stringify(value);
  return /^\d{1,15}$/.test(text) ? Number(text) : text;
}

export type ItemReading = { ok: true; product: CatalogueProduct } | { ok: false; problem: string };

/** One item of the list, or why it is no product the catalogue can link to. */
export function readCatalogueItem(item: Record<string, unknown>, idKey: string, currency: Currency): ItemReading {
  const rawId = item[idKey];
  const id = typeof rawId === 'number' && Number.isSafeInteger(rawId) ? String(rawId) : rawId;
  if (typeof id !== 'string' || !PLATFORM_ID_PATTERN.test(id)) {
    return {
      ok: false,
      problem:
        rawId === undefined
          ? `it has no "${idKey}" (the product's id, by the site profile's sites[].products.record.id)`
          : `its "${idKey}" is ${JSON.stringify(rawId)}, which is not a platform id`,
    };
  }
  const name = scalarText(item.name) ?? '';
  const slug = scalarText(item.slug) ?? '';
  const enabled =
    item.enabled === 'true' || item.enabled === true ? true : item.enabled === 'false' || item.enabled === false ? false : null;
  return {
    ok: true,
    product: {
      id,
      name,
      slug,
      enabled,
      price: wholeNumber(item[productPriceKey(currency, 1)]),
      release: wholeNumber(item.release_date),
      expiry: wholeNumber(item.expiry_date),
      searchText: `${searchForm(name)}\n${searchForm(slug)}`,
    },
  };
}

/** Whether `product` is found by `query` (already in searchForm): its name or slug contains it. */
export const matchesSearch = (product: CatalogueProduct, query: string): boolean => query === '' || product.searchText.includes(query);

/** A price for people: "NZ$128.99" in the person's locale and the site's decimals; a value that is no price as it is. */
export function priceText(price: CatalogueProduct['price'], currency: Currency, decimals: PriceDecimals, locale?: string): string {
  if (price === null) return '';
  if (typeof price === 'string') return price;
  return formatMoney(price, currency, locale, decimals);
}

/** A release or expiry as a Date, or null where there is none or it is no number of seconds. */
export const dateOf = (seconds: CatalogueProduct['release']): Date | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;
