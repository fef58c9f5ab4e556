/**
 * Step 2, the host check: the server answers only the host names it is known by (ALLOWED_HOSTS; on
 * loopback, loopback names). A web page on another domain that its owner points at 127.0.0.1 (DNS
 * rebinding) would otherwise count as "same origin" here and could read and change what we guard.
 */
import { refuse } from '../answers';
import type { Step } from './context';

/** The host name of a Host header, without port or IPv6 brackets, lower-cased. */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  const match = /^\[([^\]]+)\](?::\d+)?$/.exec(header) ?? /^([^:]+)(?::\d+)?$/.exec(header);
  return (match?.[1] ?? '').toLowerCase();
}

/** Whether the server answers this Host header: one of `allowed` (127.0.0.1 stands for all of 127/8), or any with 'any'. */
export function isAllowedHost(header: string | undefined, allowed: readonly string[] | 'any'): boolean {
  if (allowed === 'any') return true;
  const name = hostName(header);
  return allowed.includes(name) || (allowed.includes('127.0.0.1') && /^127\.\d+\.\d+\.\d+$/.test(name));
}

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
