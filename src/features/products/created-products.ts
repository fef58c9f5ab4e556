/**
 * Products created from this browser, kept locally (newest first, at most 50) in the app's one storage
 * store (src/lib/storage.ts), under the key and in the format they always had, so staff can reopen what
 * they made as a read-only summary.
 */
import * as z from 'zod/mini';
import { wireProductSchema, type WireProduct } from '@/contract/site-api';
import { storedValue } from '@/lib/storage';

export const CREATED_KEY = 'site-admin:created-products:v1';
export const MAX_CREATED = 50;

const createdSchema = z.object({
  localId: z.string(),
  createdAt: z.number(),
  /** What the platform answered: the record, or `{}`. */
  response: z.record(z.string(), z.unknown()),
  body: wireProductSchema,
});
export type CreatedProduct = z.infer<typeof createdSchema>;

/** The stored list, entry by entry: one entry an older version wrote differently does not hide the rest. */
export function parseCreated(json: unknown): CreatedProduct[] | undefined {
  if (!Array.isArray(json)) return undefined;
  return json.flatMap((item) => {
    const parsed = createdSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

const NONE: CreatedProduct[] = [];

const createdStore = storedValue<CreatedProduct[]>({
  key: CREATED_KEY,
  parse: parseCreated,
  fallback: NONE,
  isEmpty: (list) => list.length === 0,
});

export function listCreated(): CreatedProduct[] {
  return createdStore.read();
}

export function getCreated(localId: string): CreatedProduct | undefined {
  return listCreated().find((c) => c.localId === localId);
}

export function addCreated(body: WireProduct, response: Record<string, unknown>): CreatedProduct {
  const entry: CreatedProduct = {
    localId: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    createdAt: Date.now(),
    response,
    body,
  };
  // The product exists on the platform either way; if the browser refuses, only the local list misses it
  // (and the store keeps it for this page, so its summary still opens).
  createdStore.write([entry, ...listCreated()].slice(0, MAX_CREATED));
  return entry;
}
