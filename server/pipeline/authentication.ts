/**
 * Authentication: who is asking (auth/accounts.ts). A site's call, and every endpoint of our own
 * API but the public ones (the health check, signing in), is answered only for a person signed in, or in
 * the local demo (loopback, nobody in the database); anyone else gets 401 in the spec's error shape and
 * the app shows its sign-in page. The app's pages and files hold no data: they are served to anyone.
 */
import { refuse, sendError } from '../answers';
import type { Identify } from '../identity';
import type { OwnApi } from '../own-api';
import type { Step } from './context';

/** `identify`: who a request is from (the accounts service's, auth/accounts.ts). */
export function authenticate(identify: Identify, ownApi: Pick<OwnApi, 'find'>): Step {
  return (request, next) => {
    const { address, method, path, req, res } = request;
    if (address.kind === 'page') {
      next();
      return;
    }
    const endpoint = address.kind === 'own-api' ? ownApi.find(method, path)?.endpoint : undefined;
    identify(req, res, endpoint?.background ? { asUse: false } : undefined)
      .then((who) => {
        request.who = who;
        if (who.kind !== 'nobody' || endpoint?.public) {
          next();
          return;
        }
        refuse(req, res, 401, 'Sign in to use site-admin: your session has ended, or you have not signed in on this browser.');
      })
      .catch((error: unknown) => {
        console.error('site-admin: could not check who is asking', error);
        sendError(res, 503, 'site-admin’s server cannot reach its own database just now; try again in a moment.');
      });
  };
}
