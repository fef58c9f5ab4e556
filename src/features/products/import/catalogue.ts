/**
 * The site's products as the import's dry run reads them, to tell updates from creates: every page of the
 * platform's list (500 a page, every field), each item read through the site's record shape, with the
 * fingerprint an update of it carries in If-Match.
 *
 * The fingerprint our server compares is of the product as a read of that one product answers it. A list
 * item is that record on the sandbox, but what the platform lists is not published in full: one product is
 * read on its own to compare, and when its fingerprint differs from its list item's, the products the file
 * names (by slug) are each read on their own, so an update never carries a fingerprint our server would
 * refuse for nothing.
 */
import { PRODUCT_LIST_MAX_PER_PAGE, productFingerprint, readProductRecord } from '@/contract/products';
import { getProduct, listProducts, type ProductReading } from '../product-api';
import type { CatalogueProduct } from './updates';

/** Products read on their own at a time, when the list's items are not the whole record. */
const READS_AT_ONCE = 8;

export interface CatalogueReading {
  products: CatalogueProduct[];
  /** List items that are not a product this site-admin can read (left out: such a slug is checked as new). */
  unreadable: number;
  /** Whether the list's items were the products' whole records, or each product of the file was read on its own. */
  from: 'list' | 'each';
}

/** Every product of the site; `wanted`: the slugs the file names (read on their own when the list is not whole). */
export async function readCatalogue(
  reading: ProductReading,
  wanted: () => ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<CatalogueReading> {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await listProducts({ per_page: PRODUCT_LIST_MAX_PER_PAGE, page, sort_type: 'id', sort_order: 'asc' }, reading, signal);
    if (answer.kind === 'empty') break;
    if (answer.kind === 'unreadable') throw new Error(`The site’s product list could not be read: ${answer.problem}.`);
    items.push(...answer.content.items);
    const { total, perPage } = answer.content;
    const size = perPage ?? PRODUCT_LIST_MAX_PER_PAGE;
    if (answer.content.items.length < size || (total !== null && page * size >= total)) break;
  }
  let unreadable = 0;
  const products: CatalogueProduct[] = [];
  for (const item of items) {
    const read = readProductRecord(item, reading.shape);
    const id = read.ok ? read.record.id : undefined;
    if (!read.ok || !id || !read.record.slug) {
      unreadable += 1;
      continue;
    }
    products.push({ id, slug: read.record.slug, record: read.record, unknown: read.unknown, fingerprint: await productFingerprint(item) });
  }
  const probe = products[0];
  if (!probe) return { products, unreadable, from: 'list' };
  const alone = await getProduct(probe.id, reading, signal);
  if (alone.kind === 'read' && alone.fingerprint === probe.fingerprint) return { products, unreadable, from: 'list' };

  // The list's items are not the records a read of one product gives: the file's products are read each.
  const slugs = wanted();
  const named = products.filter((product) => slugs.has(product.slug));
  const byId = new Map<string, CatalogueProduct>();
  for (let i = 0; i < named.length; i += READS_AT_ONCE) {
    await Promise.all(
      named.slice(i, i + READS_AT_ONCE).map(async (product) => {
        const read = await getProduct(product.id, reading, signal);
        if (read.kind === 'read' && read.record.slug) {
          byId.set(product.id, {
            ...product,
            slug: read.record.slug,
            record: read.record,
            unknown: read.unknown,
            fingerprint: read.fingerprint,
          });
        }
      }),
    );
  }
  return { products: products.map((product) => byId.get(product.id) ?? product), unreadable, from: 'each' };
}
