/**
 * The site this page works on, for the two things every feature does without thinking of sites: calling
 * the API and keeping things in this browser. A page works on one site at a time, and switching sites
 * remounts the app under the other site's address, so one module-level value is enough and saves every
 * call and every store from carrying it: `null` is the only site of a single-site server, which keeps
 * today's short API address and storage keys.
 */
import { siteApiBasePath } from '@/contract/site-info';

let current: string | null = null;
/** The site the API's address names: `current`, or a site of a server with several when the person may use only it. */
let apiSite: string | null = null;

/**
 * `site` scopes storage (and, by default, the API's address); `addressed` names the site in the API's
 * address when storage stays unscoped: a person who may use one site of a server of several sees the
 * short page addresses, but the server needs to be told which of its sites is meant.
 */
export function setSiteScope(site: string | null, addressed: string | null = site): void {
  current = site;
  apiSite = addressed;
}

export function siteScope(): string | null {
  return current;
}

/** The base of the Site API v2 calls for the current site: `/api/site/v2` or `/api/s/harbour-linen/site/v2`. */
export function apiBasePath(): string {
  return siteApiBasePath(apiSite);
}

/** A browser-storage key for the current site: `site-admin:cases:recent` or `site-admin:cases:recent@harbour-linen`. */
export function scopedKey(key: string): string {
  return current === null ? key : `${key}@${current}`;
}
