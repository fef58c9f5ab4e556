/**
 * What the endpoints of accounts and people share: a body read through the contract's schema (400 in the
 * spec's error shape, naming each field, when it does not fit), and the password rules' answer.
 */
import type { ServerResponse } from 'node:http';
import type * as z from 'zod/mini';
import type { ErrorDetail } from '../../src/contract/site-api';
import { sendError } from '../answers';
import type { PasswordProblem } from './password-policy';

/** The body as `schema` reads it, or undefined after answering 400 with what is wrong, field by field. */
export function parseBody<S extends z.ZodMiniType>(res: ServerResponse, schema: S, body: unknown, message: string): z.infer<S> | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const details: ErrorDetail[] = parsed.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : 'body',
    message: issue.message,
  }));
  sendError(res, 400, message, details);
  return undefined;
}

/** 400 for a new password the rules refuse, with every reason under `field`. */
export function refusePassword(res: ServerResponse, field: string, problems: readonly PasswordProblem[]): void {
  sendError(
    res,
    400,
    `That password cannot be used: ${problems.map((problem) => problem.message).join(' ')}`,
    problems.map((problem) => ({ field, message: problem.message })),
  );
}
