/**
 * What the browser knows of a site (GET /api/sites): everything of its site profile but where its key
 * lives. Without zod, and apart from site-profile.ts, because the first page reads the list of sites and
 * loads no zod: the type comes from the profile's schema, and `readSiteInfo` checks what the browser
 * relies on.
 */
import { CAPABILITIES, readCapabilities, type Capability } from './access';
import type { SiteConfig } from './site-profile';
import { API_BASE_PATH, CURRENCIES, isJsonObject, type Currency } from './site-api-basics';

/** Where the browser reads the sites (GET): `{"sites": SiteInfo[]}`. */
export const SITES_PATH = '/api/sites';

/**
 * The same-origin base of a site's Site API v2 calls: `/api/s/harbour-linen/site/v2`; the short
 * `/api/site/v2` (null) reaches the only site of a server that has one.
 */
export const siteApiBasePath = (site: string | null): string =>
  site === null ? API_BASE_PATH : `/api/s/${encodeURIComponent(site)}${API_BASE_PATH.slice('/api'.length)}`;

/** A site of the profile as the browser sees it; `mode` and `host` say where its calls go, for the header's badge. */
export type SiteInfo = Pick<SiteConfig, 'id' | 'name' | 'labels' | 'forms' | 'references' | 'lists' | 'products' | 'defaults'> & {
  mode: 'sandbox' | 'platform';
  host?: string;
  siteId: string;
  currencies: Currency[];
  decimals: 2 | 4;
  /** What the person asking may do on it (`GET /api/sites` says; everything in the local demo). */
  can?: Capability[];
};

type Json = Record<string, unknown>;
const isCurrency = (value: unknown): value is Currency => CURRENCIES.some((currency) => currency === value);

/**
 * A site of `GET /api/sites`, or null when it lacks what the browser relies on: its id, name, mode and site
 * id, the host if any, its currencies and decimals. Labels, forms, references, lists and defaults are passed on
 * as they are (the server checked them against the profile's schema at start); other keys are left out.
 */
export function readSiteInfo(value: unknown): SiteInfo | null {
  if (!isJsonObject(value)) return null;
  const { id, name, mode, host, siteId, currencies, decimals } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof siteId !== 'string') return null;
  if ((mode !== 'sandbox' && mode !== 'platform') || (host !== undefined && typeof host !== 'string')) return null;
  if (!Array.isArray(currencies) || !currencies.every(isCurrency) || (decimals !== 2 && decimals !== 4)) return null;
  const info: SiteInfo = { id, name, mode, siteId, currencies: [...currencies], decimals };
  if (host !== undefined) info.host = host;
  if (value.can !== undefined) {
    const can = readCapabilities(value.can);
    if (!can) return null;
    info.can = can;
  }
  const parts: Json = info;
  for (const key of ['labels', 'forms', 'references', 'lists', 'products', 'defaults'])
    if (value[key] !== undefined) parts[key] = value[key];
  return info;
}

/** What the person may do on `site`: what `GET /api/sites` said, or everything when it said nothing. */
export const capabilitiesOf = (site: SiteInfo): readonly Capability[] => site.can ?? CAPABILITIES;

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
