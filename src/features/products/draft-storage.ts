/**
 * The editor's drafts, kept in this browser (per site) so that a reload, a crash, a closed tab or a
 * failed create loses nothing, and so that several products can be in progress at once. In the app's
 * one storage store (src/lib/storage.ts). A draft the previous version left under its single-draft key
 * is read as one of the drafts and moved into the list the first time a draft is written.
 */
import { storedValue } from '@/lib/storage';
import { emptyProduct, newKey, productFormSchema, type ProductForm } from './model/product-form';

export const DRAFTS_KEY = 'site-admin:product-drafts:v2';
/** Where the previous version kept its one draft ({ savedAt, step, values }). */
export const LEGACY_DRAFT_KEY = 'site-admin:product-draft:v1';
const LEGACY_ID = 'earlier-draft';

export interface Draft {
  id: string;
  savedAt: number;
  step: number;
  values: ProductForm;
}

/** A product nobody has typed anything into yet: not worth keeping as a draft. */
export function isBlank(values: ProductForm): boolean {
  return JSON.stringify({ ...values, slugEdited: false }) === JSON.stringify(emptyProduct());
}

/** One stored draft, or null for anything that is not one (or not worth offering). */
function parseOne(json: unknown, fallbackId?: string): Draft | null {
  if (json === null || typeof json !== 'object') return null;
  const { id, savedAt, step, values } = json as Partial<Record<keyof Draft, unknown>>;
  const parsed = productFormSchema.safeParse(values);
  const key = typeof id === 'string' && id !== '' ? id : fallbackId;
  if (!parsed.success || typeof savedAt !== 'number' || key === undefined || isBlank(parsed.data)) return null;
  return { id: key, savedAt, step: Number.isInteger(step) ? Number(step) : 0, values: parsed.data };
}

/** The stored list; drafts that cannot be read are left out, the rest kept. */
export function parseDrafts(json: unknown): Draft[] | undefined {
  if (!Array.isArray(json)) return undefined;
  return json.flatMap((entry) => parseOne(entry) ?? []);
}

const draftsStore = storedValue<Draft[]>({ key: DRAFTS_KEY, parse: parseDrafts, fallback: [], isEmpty: (list) => list.length === 0 });
const legacyStore = storedValue<Draft | null>({ key: LEGACY_DRAFT_KEY, parse: (json) => parseOne(json, LEGACY_ID), fallback: null });

/** Every draft of this site, the most recently saved first. */
export function listDrafts(): Draft[] {
  const legacy = legacyStore.read();
  const list = draftsStore.read();
  const all = legacy && !list.some((d) => d.id === legacy.id) ? [...list, legacy] : list;
  return [...all].sort((a, b) => b.savedAt - a.savedAt);
}

/** A new draft's id. */
export const newDraftId = (): string => `draft-${newKey()}`;

/**
 * Saves the product as draft `id` (a blank product removes it). False when the browser refused to store it
 * (storage full or disabled).
 */
export function saveDraft(id: string, values: ProductForm, step: number): boolean {
  const others = listDrafts().filter((draft) => draft.id !== id);
  return writeList(isBlank(values) ? others : [{ id, savedAt: Date.now(), step, values }, ...others]);
}

export function deleteDraft(id: string): void {
  writeList(listDrafts().filter((draft) => draft.id !== id));
}

/** Writes the whole list; the earlier version's draft, read into it, then lives only there. */
function writeList(list: Draft[]): boolean {
  const saved = draftsStore.write(list);
  if (saved && legacyStore.read()) legacyStore.clear();
  return saved;
}

export function subscribeDrafts(listener: () => void): () => void {
  const a = draftsStore.subscribe(listener);
  const b = legacyStore.subscribe(listener);
  return () => {
    a();
    b();
  };
}
