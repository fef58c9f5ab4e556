/**
 * What the endpoints of accounts and people share: the password rules' answer (and `parseBody`, which every
 * own endpoint shares, from own-api.ts).
 */
import type { ServerResponse } from 'node:http';
import { sendError } from '../answers';
import type { PasswordProblem } from './password-policy';

export { parseBody } from '../own-api';

/** 400 for a new password the rules refuse, with every reason under `field`. */
export function refusePassword(res: ServerResponse, field: string, problems: readonly PasswordProblem[]): void {
  sendError(
    res,
    400,
    `That password cannot be used: ${problems.map((problem) => problem.message).join(' ')}`,
    problems.map((problem) => ({ field, message: problem.message })),
  );
}
