/**
 * What our own server tells the browser about where its calls go (GET /api/meta). Never the key.
 */
import * as z from 'zod/mini';

export const SERVER_META_PATH = '/api/meta';

export const serverMetaSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('sandbox'), siteId: z.string() }),
  z.object({ mode: z.literal('platform'), host: z.string(), siteId: z.string() }),
]);
export type ServerMeta = z.infer<typeof serverMetaSchema>;
