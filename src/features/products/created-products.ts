/**
 * Products created from this browser, kept locally (newest first, at most 50), so staff can reopen
 * what they made as a read-only summary.
 */
import * as z from 'zod/mini';
import { wireProductSchema, type WireProduct } from '@/contract/site-api';

const CREATED_KEY = 'site-admin:created-products:v1';
const MAX_CREATED = 50;

const createdSchema = z.object({
  localId: z.string(),
  createdAt: z.number(),
  /** What the platform answered: the record, or `{}`. */
  response: z.record(z.string(), z.unknown()),
  body: wireProductSchema,
});
export type CreatedProduct = z.infer<typeof createdSchema>;

export function listCreated(storage: Storage = localStorage): CreatedProduct[] {
  try {
    const parsed = z.array(createdSchema).safeParse(JSON.parse(storage.getItem(CREATED_KEY) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function getCreated(localId: string, storage: Storage = localStorage): CreatedProduct | undefined {
  return listCreated(storage).find((c) => c.localId === localId);
}

export function addCreated(body: WireProduct, response: Record<string, unknown>, storage: Storage = localStorage): CreatedProduct {
  const entry: CreatedProduct = {
    localId: `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
    createdAt: Date.now(),
    response,
    body,
  };
  try {
    storage.setItem(CREATED_KEY, JSON.stringify([entry, ...listCreated(storage)].slice(0, MAX_CREATED)));
  } catch {
    // The product exists on the platform either way; only the local list misses it.
  }
  return entry;
}
