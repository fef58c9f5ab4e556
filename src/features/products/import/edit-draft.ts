/**
 * Drafts of the products of an import opened in the full editor, kept in this browser (per site) as the
 * new product's drafts are, so that a reload, a closed tab or a slip of Back loses nothing. A draft
 * belongs to one product of one import: its first row, and what its rows read as when it was opened (a
 * file started over, or rows changed since, make it another product's, and it is not offered).
 */
import { storedValue } from '@/lib/storage';
import { productFormSchema, type ProductForm } from '../model/product-form';

export const IMPORT_DRAFTS_KEY = 'site-admin:import-edit-drafts:v1';
/** Enough for the products of one import being worked on; the oldest go first. */
const MAX_DRAFTS = 20;

export interface ImportDraft {
  /** The product's first row (its key in the import). */
  row: number;
  /** What the rows read as, without the editor's list keys (see baseOf). */
  base: string;
  savedAt: number;
  step: number;
  values: ProductForm;
}

/**
 * The product as its rows read, comparable from one reading to the next (list keys are new each time; an
 * item's empty `id`, which a new item has, is left out as drafts saved before items had ids were written).
 */
export const baseOf = (form: ProductForm): string =>
  JSON.stringify(form, (name, value: unknown) => (name === 'key' || (name === 'id' && value === '') ? undefined : value));

function parseOne(json: unknown): ImportDraft | null {
  if (json === null || typeof json !== 'object') return null;
  const { row, base, savedAt, step, values } = json as Partial<Record<keyof ImportDraft, unknown>>;
  const parsed = productFormSchema.safeParse(values);
  if (!parsed.success || typeof row !== 'number' || typeof base !== 'string' || typeof savedAt !== 'number') return null;
  return { row, base, savedAt, step: Number.isInteger(step) ? Number(step) : 0, values: parsed.data };
}

const store = storedValue<ImportDraft[]>({
  key: IMPORT_DRAFTS_KEY,
  parse: (json) => (Array.isArray(json) ? json.flatMap((entry) => parseOne(entry) ?? []) : undefined),
  fallback: [],
  isEmpty: (list) => list.length === 0,
});

const isFor = (row: number, base: string) => (draft: ImportDraft) => draft.row === row && draft.base === base;

/** The draft of the product whose rows start at `row` and read as `base`, if one was kept. */
export function findImportDraft(row: number, base: string): ImportDraft | undefined {
  return store.read().find(isFor(row, base));
}

/** Keeps the product's values as its draft; false when the browser refused. */
export function saveImportDraft(row: number, base: string, values: ProductForm, step: number): boolean {
  const others = store.read().filter((draft) => !isFor(row, base)(draft));
  return store.write([{ row, base, savedAt: Date.now(), step, values }, ...others].slice(0, MAX_DRAFTS));
}

export function deleteImportDraft(row: number, base: string): void {
  store.write(store.read().filter((draft) => !isFor(row, base)(draft)));
}
