/**
 * What our own server adds to the answers of the platform it passes on. Never the key.
 */

/**
 * Our server adds this header to every answer the platform gave (passed on, or turned into a 502 because
 * it was not JSON), with the platform's own status. Its absence on a 502 or 504 means the platform gave
 * no answer: it could not be reached, or did not answer in time.
 */
export const PLATFORM_STATUS_HEADER = 'x-platform-status';
