/**
 * Permissions: a site's call goes on to its platform only when the person's grants allow that
 * operation on that site (src/contract/access.ts); otherwise 403 in the spec's error shape, saying what
 * they may and may not do there, and no platform is contacted. Our own 403 carries no x-platform-status,
 * so the browser tells it apart from a platform's 403 (the site's key lacking a permission).
 */
import { capabilitiesOfAsker, may, OPERATION_NEEDS, refusalMessage, type Capability } from '../../src/contract/access';
import { refuse, sendError } from '../answers';
import type { OperationName, Step } from './context';

const NEEDS: Record<OperationName, Capability> = OPERATION_NEEDS;

/** `siteNames`: each site's name in the profile, by its id, for the refusal's words. */
export function checkPermissions(siteNames: ReadonlyMap<string, string>): Step {
  return (request, next) => {
    const { who, site, operation, req, res } = request;
    if (!site || !operation) {
      next();
      return;
    }
    const wanted = NEEDS[operation.name];
    if (may(who, site.id, wanted)) {
      next();
      return;
    }
    if (who?.kind !== 'person') {
      // Authentication lets nobody else reach a site's call; refuse rather than trust that.
      sendError(res, 401, 'Sign in to use site-admin.');
      return;
    }
    refuse(req, res, 403, refusalMessage(siteNames.get(site.id) ?? site.id, capabilitiesOfAsker(who, site.id), wanted));
  };
}
