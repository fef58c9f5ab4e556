/**
 * The editor's draft, kept in this browser so that a reload, a crash, a closed tab or a failed create
 * loses nothing. One draft at a time, in the app's one storage store (src/lib/storage.ts), under the key
 * and in the format it always had; versioned key so an old shape is never misread.
 */
import { storedValue } from '@/lib/storage';
import { emptyProduct, productFormSchema, type ProductForm } from './model/product-form';

export const DRAFT_KEY = 'site-admin:product-draft:v1';

export interface Draft {
  savedAt: number;
  step: number;
  values: ProductForm;
}

/** A stored draft, or null for anything that is not one (or not worth offering). */
export function parseDraft(json: unknown): Draft | null {
  if (json === null || typeof json !== 'object') return null;
  const { savedAt, step, values } = json as Partial<Record<keyof Draft, unknown>>;
  const parsed = productFormSchema.safeParse(values);
  if (!parsed.success || typeof savedAt !== 'number' || isBlank(parsed.data)) return null;
  return { savedAt, step: Number.isInteger(step) ? Number(step) : 0, values: parsed.data };
}

const draftStore = storedValue<Draft | null>({
  key: DRAFT_KEY,
  parse: parseDraft,
  fallback: null,
  isEmpty: (draft) => draft === null || isBlank(draft.values),
});

export function loadDraft(): Draft | null {
  return draftStore.read();
}

/** False when the browser refused to store it (storage full or disabled). A blank product removes the draft. */
export function saveDraft(values: ProductForm, step: number): boolean {
  return draftStore.write({ savedAt: Date.now(), step, values });
}

export function clearDraft(): void {
  draftStore.clear();
}

/** A product nobody has typed anything into yet: not worth offering as a draft. */
export function isBlank(values: ProductForm): boolean {
  return JSON.stringify({ ...values, slugEdited: false }) === JSON.stringify(emptyProduct());
}
