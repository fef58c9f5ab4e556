/**
 * Our own small API, beside the sites' Site API v2: the list of sites the browser may know, and a health
 * check for load balancers (answered without a login). Every other address under /api is not an endpoint.
 */
import { SITES_PATH, type SiteInfo } from '../src/contract/site-info';
import { sendError } from './answers';
import type { RequestContext } from './pipeline/context';

export const HEALTH_PATH = '/api/health';

/** Answers a GET or HEAD (the pipeline refused every other method) of an address under /api. */
export function createOwnApi(sites: readonly SiteInfo[]): (request: RequestContext) => void {
  const answers = new Map([
    [SITES_PATH, JSON.stringify({ sites })],
    [HEALTH_PATH, JSON.stringify({ status: 'ok' })],
  ]);
  return ({ res, method, path }) => {
    const body = answers.get(path);
    if (body === undefined) {
      sendError(res, 404, `${method} ${path} is not an endpoint of this server.`);
      return;
    }
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    // Node leaves the body out of an answer to HEAD.
    res.end(body);
  };
}
