/**
 * The same-origin check: only the app's own pages may change anything. A cross-site form or
 * script gets 403 here, and the platform never sees it. (By now only a site's operations can be asked to
 * change anything: the refusal of unread bodies, before it, refused every other request that is not GET or
 * HEAD.)
 */
import type { IncomingMessage } from 'node:http';
import { refuse } from '../answers';
import type { Step } from './context';

/**
 * A state-changing request must come from the app's own pages: the browser says so with
 * Sec-Fetch-Site: same-origin, or with an Origin whose host is the host it asked.
 * Requests without either (not sent by a browser page of ours) are refused too.
 */
export function isSameOrigin(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = req.headers.origin;
  const host = req.headers.host;
  if (!origin || !host || origin === 'null') return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

export const checkSameOrigin: Step = ({ req, res, readOnly }, next) => {
  if (readOnly || isSameOrigin(req)) {
    next();
    return;
  }
  refuse(req, res, 403, 'Changes must come from site-admin’s own pages (the Origin of this request is another site).');
};
