/**
 * The site this page works on, for the two things every feature does without thinking of sites: calling
 * the API and keeping things in this browser. A page works on one site at a time, and switching sites
 * remounts the app under the other site's address, so one module-level value is enough and saves every
 * call and every store from carrying it: `null` is the only site of a single-site server, which keeps
 * today's short API address and storage keys.
 */
import { siteApiBasePath } from '@/contract/site-info';

let current: string | null = null;

export function setSiteScope(site: string | null): void {
  current = site;
}

export function siteScope(): string | null {
  return current;
}

/** The base of the Site API v2 calls for the current site: `/api/site/v2` or `/api/s/harbour-linen/site/v2`. */
export function apiBasePath(): string {
  return siteApiBasePath(current);
}

/** A browser-storage key for the current site: `site-admin:cases:recent` or `site-admin:cases:recent@harbour-linen`. */
export function scopedKey(key: string): string {
  return current === null ? key : `${key}@${current}`;
}
