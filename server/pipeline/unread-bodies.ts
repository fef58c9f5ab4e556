/**
 * The refusals that need to know nothing but the request line: our pages only read, and of our
 * own API only the endpoints that declare a method other than GET take a body, so any other request that
 * would send a body (any other method, or a GET with a body) is refused before anything reads it, whoever
 * sends it. A site's operations take a body only to create a product; the operation allowlist (a later step)
 * refuses the rest.
 */
import { bodyPending, refuse } from '../answers';
import type { OwnApi } from '../own-api';
import type { Step } from './context';

export function refuseUnreadBodies(ownApi: Pick<OwnApi, 'find'>): Step {
  return ({ req, res, method, readOnly, path, address }, next) => {
    if (address.kind === 'site') {
      next();
      return;
    }
    // Our own endpoints that take a body (signing in, people's changes) read it themselves, within their bound.
    if (!readOnly && address.kind === 'own-api' && ownApi.find(method, path)) {
      next();
      return;
    }
    if (!readOnly) {
      if (address.kind === 'own-api') refuse(req, res, 404, `${method} ${path} is not an endpoint of this server.`);
      else refuse(req, res, 405, `${method} is not allowed on the pages of site-admin.`, undefined, { allow: 'GET, HEAD' });
      return;
    }
    if (bodyPending(req)) {
      refuse(req, res, 400, `${method} ${path} takes no request body.`, [{ field: 'body', message: 'must be empty' }]);
      return;
    }
    next();
  };
}
