/**
 * Step 4, authentication: who is asking. With a login configured (ADMIN_USER and ADMIN_PASSWORD), HTTP
 * Basic with its limits on guessing (login.ts), except for the health check, which load balancers ask
 * without a login. Without one (a server on loopback, behind the operator's own single sign-on), anyone
 * who reaches the port.
 */
import type { createBasicAuth } from '../login';
import type { Step } from './context';
import { HEALTH_PATH } from '../own-api';

export interface Login {
  user: string;
  check: ReturnType<typeof createBasicAuth>;
}

export function authenticate(login: Login | undefined): Step {
  return (request, next) => {
    if (!login || request.url === HEALTH_PATH) {
      request.who = { kind: 'anyone' };
      next();
      return;
    }
    // Answers 401 or 429 itself; calls back only for the right login.
    login.check(request.req, request.res, () => {
      request.who = { kind: 'user', name: login.user };
      next();
    });
  };
}
