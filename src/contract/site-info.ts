/**
 * What the browser knows of a site (GET /api/sites): everything of its site profile but where its key
 * lives. Apart from site-profile.ts so that the first page loads only this small schema.
 */
import * as z from 'zod/mini';
import type { SiteConfig } from './site-profile';
import { API_BASE_PATH, CURRENCIES } from './site-api';

/** Where the browser reads the sites (GET): `{"sites": SiteInfo[]}`. */
export const SITES_PATH = '/api/sites';

/**
 * The same-origin base of a site's Site API v2 calls: `/api/s/harbour-linen/site/v2`; the short
 * `/api/site/v2` (null) reaches the only site of a server that has one.
 */
export const siteApiBasePath = (site: string | null): string =>
  site === null ? API_BASE_PATH : `/api/s/${encodeURIComponent(site)}${API_BASE_PATH.slice('/api'.length)}`;

/** `mode` and `host` say where its calls go, for the header's badge. */
export const siteInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  mode: z.enum(['sandbox', 'platform']),
  host: z.optional(z.string()),
  siteId: z.string(),
  currencies: z.array(z.enum(CURRENCIES)),
  decimals: z.union([z.literal(2), z.literal(4)]),
  labels: z.optional(z.unknown()),
  forms: z.optional(z.unknown()),
  references: z.optional(z.unknown()),
  defaults: z.optional(z.unknown()),
});

export type SiteInfo = Omit<z.infer<typeof siteInfoSchema>, 'labels' | 'forms' | 'references' | 'defaults'> &
  Pick<SiteConfig, 'labels' | 'forms' | 'references' | 'defaults'>;

/** The browser's view of a site of the profile. */
export function siteInfoOf(site: SiteConfig): SiteInfo {
  const { platform: where, money, ...rest } = site;
  return {
    ...rest,
    mode: 'sandbox' in where ? 'sandbox' : 'platform',
    host: 'baseUrl' in where ? new URL(where.baseUrl).host : undefined,
    siteId: where.siteId,
    currencies: money?.currencies ?? [...CURRENCIES],
    decimals: money?.decimals ?? 2,
  };
}
