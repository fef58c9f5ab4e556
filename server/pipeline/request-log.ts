/**
 * The request log of a site's calls, between site resolution and the operation allowlist: from here on
 * each answer carries an x-request-id (the caller's, when it is a safe token, else a new one; the proxy
 * passes it on to the platform), and, with LOG_REQUESTS, one JSON line per call says which site, which
 * operation (`not-allowed` for a refused one), the status and how long it took.
 */
import { randomUUID } from 'node:crypto';
import type { Step } from './context';

export interface RequestLogEntry {
  time: string;
  requestId: string;
  /** The site's id in the profile (`main` without one). */
  site: string;
  method: string;
  route: string;
  status: number;
  durationMs: number;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export function logSiteCalls(log: ((entry: RequestLogEntry) => void) | undefined): Step {
  return (request, next) => {
    const { req, res, method, site } = request;
    if (!site) {
      next();
      return;
    }
    const started = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && REQUEST_ID_PATTERN.test(incomingId) ? incomingId : randomUUID();
    request.requestId = requestId;
    res.setHeader('x-request-id', requestId);
    if (log) {
      res.once('finish', () => {
        log({
          time: new Date().toISOString(),
          requestId,
          site: site.id,
          method,
          route: request.operationName ?? 'not-allowed',
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        });
      });
    }
    next();
  };
}
