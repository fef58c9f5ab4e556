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

/**
 * Our server adds this header to every answer the platform gave (passed on, or turned into a 502 because
 * it was not JSON), with the platform's own status. Its absence on a 502 or 504 means the platform gave
 * no answer: it could not be reached, or did not answer in time.
 */
export const PLATFORM_STATUS_HEADER = 'x-platform-status';
