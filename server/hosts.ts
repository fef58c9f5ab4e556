/**
 * Host names: which are loopback, the name a Host header carries, and whether the server answers it. Used
 * by the configuration (where the server may listen without a login), the host check of the pipeline, the
 * sandbox (which checks its own Host) and passkeys (whose relying party is the host asked for); kept apart
 * from all of them so that none of them imports another for it.
 */
import { isIP } from 'node:net';

/** Loopback addresses and names: the only hosts the server may listen on without a login. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1';
  return false;
}

/** The names the server answers on loopback (and the in-process sandbox always). */
export const LOOPBACK_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '::1'];

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
