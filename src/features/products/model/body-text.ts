/**
 * The exact text of a write's body, as Review shows it and as asking for approval stores it: an approved
 * change is sent as this very text (its SHA-256 is what the server checks), so Review, the stored change
 * and the request are the same bytes by construction, not by two serialisations that happen to agree.
 */
import { updateBodyForShape, type ProductRecordShape, type WireProductUpdate } from '@/contract/products';
import type { WireProduct } from '@/contract/site-api';

/** A create's body. */
export const createBodyText = (body: WireProduct): string => JSON.stringify(body, null, 2);

/** An update's body, in the site's record shape. */
export const updateBodyText = (body: WireProductUpdate, shape: ProductRecordShape): string =>
  JSON.stringify(updateBodyForShape(body, shape), null, 2);
