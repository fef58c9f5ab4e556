/**
 * The sandbox that `npm start` runs for the end-to-end tests, reached directly (not through the proxy)
 * for its test helpers. Port and key as set in playwright.config.ts and the sandbox's defaults.
 */
export const SANDBOX = {
  origin: `http://127.0.0.1:${process.env.E2E_SANDBOX_PORT ?? 4180}`,
  headers: { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001' },
} as const;
