/**
 * The editor's draft, kept in this browser so that a reload, a crash, a closed tab or a failed create
 * loses nothing. One draft at a time; versioned key so an old shape is never misread.
 */
import { emptyProduct, productFormSchema, type ProductForm } from './model/product-form';

const DRAFT_KEY = 'site-admin:product-draft:v1';

export interface Draft {
  savedAt: number;
  step: number;
  values: ProductForm;
}

export function loadDraft(storage: Storage = localStorage): Draft | null {
  try {
    const raw = storage.getItem(DRAFT_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Draft>;
    const values = productFormSchema.safeParse(parsed.values);
    if (!values.success || typeof parsed.savedAt !== 'number') return null;
    if (isBlank(values.data)) return null;
    return { savedAt: parsed.savedAt, step: Number.isInteger(parsed.step) ? Number(parsed.step) : 0, values: values.data };
  } catch {
    return null;
  }
}

/** False when the browser refused to store it (storage full or disabled). */
export function saveDraft(values: ProductForm, step: number, storage: Storage = localStorage): boolean {
  try {
    if (isBlank(values)) storage.removeItem(DRAFT_KEY);
    else storage.setItem(DRAFT_KEY, JSON.stringify({ savedAt: Date.now(), step, values } satisfies Draft));
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(storage: Storage = localStorage): void {
  try {
    storage.removeItem(DRAFT_KEY);
  } catch {
    // Nothing to clear if storage is unavailable.
  }
}

/** A product nobody has typed anything into yet: not worth offering as a draft. */
export function isBlank(values: ProductForm): boolean {
  return JSON.stringify({ ...values, slugEdited: false }) === JSON.stringify(emptyProduct());
}
