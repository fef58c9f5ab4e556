/**
 * What our own server tells the browser about where its calls go (GET /api/meta). Never the key.
 */
export const SERVER_META_PATH = '/api/meta';

/** The answer of GET /api/meta: where the first site's calls go. Written by our server, read by no page of today's. */
export type ServerMeta = { mode: 'sandbox'; siteId: string } | { mode: 'platform'; host: string; siteId: string };

/**
 * Our server adds this header to every answer the platform gave (passed on, or turned into a 502 because
 * it was not JSON), with the platform's own status. Its absence on a 502 or 504 means the platform gave
 * no answer: it could not be reached, or did not answer in time.
 */
export const PLATFORM_STATUS_HEADER = 'x-platform-status';
