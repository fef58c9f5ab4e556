/**
 * Drafts of corrections: a product of the catalogue being edited, kept in this browser as the person
 * types (per site, by the store's site scope, and per product id), with the product as it was read when
 * the edit began and that reading's fingerprint. Reopening the product compares the fingerprint with the
 * product's as read now: the same, and the draft is the person's work on the product as it is; another,
 * and the product changed since, so the draft goes through the conflict view (its base, theirs, mine)
 * rather than being saved over what changed.
 *
 * Kept apart from the new products' drafts (draft-storage.ts): a correction belongs to one product, is
 * found by opening it, and is never offered as a product to create.
 */
import { readProductRecord, type ProductRecord } from '@/contract/products';
import { isJsonObject } from '@/contract/site-api-basics';
import { storedValue } from '@/lib/storage';
import { productFormSchema, type ProductForm } from '../model/product-form';

export const EDIT_DRAFTS_KEY = 'site-admin:product-edit-drafts:v1';
/** At most this many corrections are kept; the oldest go first (each holds a whole product twice). */
const MAX_EDIT_DRAFTS = 20;

export interface EditDraft {
  /** The platform's product id. */
  productId: string;
  /** The fingerprint of the product as read when this edit began (what its save would carry in If-Match). */
  fingerprint: string;
  /** The product as read then: the base of the edit's diff, and of the conflict view when it changed since. */
  base: ProductRecord;
  savedAt: number;
  step: number;
  values: ProductForm;
}

function parseOne(json: unknown): EditDraft | null {
  if (!isJsonObject(json)) return null;
  const { productId, fingerprint, base, savedAt, step, values } = json;
  const form = productFormSchema.safeParse(values);
  // The base was a record read through the default shape when it was stored: read it back the same way.
  const record = readProductRecord(base);
  if (typeof productId !== 'string' || typeof fingerprint !== 'string' || typeof savedAt !== 'number') return null;
  if (!form.success || !record.ok) return null;
  return { productId, fingerprint, base: record.record, savedAt, step: Number.isInteger(step) ? Number(step) : 0, values: form.data };
}

function parseList(json: unknown): EditDraft[] | undefined {
  if (!Array.isArray(json)) return undefined;
  return json.flatMap((entry) => parseOne(entry) ?? []);
}

const store = storedValue<EditDraft[]>({ key: EDIT_DRAFTS_KEY, parse: parseList, fallback: [], isEmpty: (list) => list.length === 0 });

/** Every correction in progress on this site, the most recently saved first. */
export function listEditDrafts(): EditDraft[] {
  return [...store.read()].sort((a, b) => b.savedAt - a.savedAt);
}

export function findEditDraft(productId: string): EditDraft | undefined {
  return store.read().find((draft) => draft.productId === productId);
}

/** Saves the correction of a product (one per product); false when the browser refused. */
export function saveEditDraft(draft: Omit<EditDraft, 'savedAt'>): boolean {
  const others = listEditDrafts().filter((d) => d.productId !== draft.productId);
  return store.write([{ ...draft, savedAt: Date.now() }, ...others].slice(0, MAX_EDIT_DRAFTS));
}

export function deleteEditDraft(productId: string): void {
  const list = store.read();
  if (list.some((d) => d.productId === productId)) store.write(list.filter((d) => d.productId !== productId));
}
