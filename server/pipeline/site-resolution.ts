/**
 * Site resolution: which configured site an address of Site API v2 names. The site is the whole
 * first segment after /api/s/, compared as it came (`nor%74h` is not `north`): only an id of the profile
 * matches. The short /api/site/v2/... reaches the one site of a server that has only one.
 */
import { SITES_PATH } from '../../src/contract/site-info';
import { refuse } from '../answers';
import { SITE_ADDRESS_PREFIX, SITE_API_SUFFIX, type ResolvedSite, type Step } from './context';

/** How a refusal quotes the site an address named: as it came, never long. */
function quotedSite(segment: string): string {
  return JSON.stringify(segment.length > 64 ? `${segment.slice(0, 64)}…` : segment);
}

export function resolveSite(sites: ReadonlyMap<string, ResolvedSite>): Step {
  const onlySite = sites.size === 1 ? [...sites.values()][0] : undefined;
  const siteAddress = `${SITE_ADDRESS_PREFIX}{site}${SITE_API_SUFFIX}/... with a site of ${SITES_PATH}`;
  return (request, next) => {
    const { req, res, method, path, address } = request;
    if (address.kind !== 'site') {
      next();
      return;
    }
    if (address.site === null) {
      if (!onlySite) {
        refuse(req, res, 404, `This server works on ${sites.size} sites, so the address must name one: ${siteAddress}.`);
        return;
      }
      request.site = onlySite;
      next();
      return;
    }
    const site = sites.get(address.site);
    if (!site) {
      refuse(
        req,
        res,
        404,
        address.site === ''
          ? `The address names no site: write ${siteAddress}.`
          : `No site called ${quotedSite(address.site)} is configured on this server.`,
      );
      return;
    }
    if (address.operationPath === null) {
      refuse(req, res, 404, `${method} ${path} is not an endpoint of this server.`);
      return;
    }
    request.site = site;
    next();
  };
}
