/**
 * The site the page works on and the sites the server has, for every feature: labels and form names
 * from its profile, its currencies and price precision. Provided by the app (src/app/site-root.tsx).
 */
import { createContext, useContext } from 'react';
import type { Me } from '@/contract/access';
import type { SiteInfo } from '@/contract/site-info';

export interface SiteContextValue {
  site: SiteInfo;
  sites: readonly SiteInfo[];
  /** True when the server has more than one site: addresses then name the site. */
  many: boolean;
  /** Who is signed in, or the local demo. */
  me: Me;
  /**
   * Tells the app that our server answered 401 (the session ended): it then shows the sign-in page. The query
   * client calls it for every query and change; a feature that calls our server outside them (the import's
   * run) calls it too.
   */
  onNotSignedIn(): void;
  /** Tells the app that who is signed in has changed (their name, their grants): it asks for the sites again. */
  onMeChanged(): void;
}

export const SiteContext = createContext<SiteContextValue | null>(null);

export function useSite(): SiteContextValue {
  const value = useContext(SiteContext);
  if (!value) throw new Error('useSite needs the app’s SiteContext provider');
  return value;
}

/** The address of a site's page: `/s/harbour-linen/cases` (with several sites), else the page's own. */
export function siteHref(site: string, path: string, many: boolean): string {
  return many ? `/s/${encodeURIComponent(site)}${path}` : path;
}
