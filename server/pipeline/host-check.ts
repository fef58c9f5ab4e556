/**
 * The host check: the server answers only the host names it is known by (ALLOWED_HOSTS; on
 * loopback, loopback names). A web page on another domain that its owner points at 127.0.0.1 (DNS
 * rebinding) would otherwise count as "same origin" here and could read and change what we guard.
 */
import { refuse } from '../answers';
import { isAllowedHost } from '../hosts';
import type { Step } from './context';

export function checkHost(allowed: readonly string[] | 'any'): Step {
  return ({ req, res }, next) => {
    const host = req.headers.host;
    if (isAllowedHost(host, allowed)) {
      next();
      return;
    }
    refuse(req, res, 421, `This server does not answer to the host "${host ?? ''}". Add it to ALLOWED_HOSTS if it is yours.`);
  };
}
