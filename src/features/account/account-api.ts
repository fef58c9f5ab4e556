/**
 * Your account's calls: the account (`queryOptions`, key and fetcher together) and its changes. Answers
 * are parsed with the contract's schemas (src/contract/people.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { PEOPLE_PATHS, peoplePath } from '@/contract/people-paths';
import { accountViewSchema, endedSchema } from '@/contract/people';
import { callOwnApi } from '@/lib/api-client';

export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: ({ signal }) => callOwnApi(PEOPLE_PATHS.account, { answer: accountViewSchema }, signal),
});

export const renameSelf = (displayName: string) => callOwnApi(PEOPLE_PATHS.account, { method: 'PATCH', body: { displayName } });

export const changePassword = (body: { currentPassword: string; newPassword: string }) =>
  callOwnApi(PEOPLE_PATHS.accountPassword, { method: 'POST', body, answer: endedSchema });

export const endSession = (handle: string) => callOwnApi(peoplePath(PEOPLE_PATHS.accountSession, { handle }), { method: 'DELETE' });

export const endOtherSessions = () => callOwnApi(PEOPLE_PATHS.accountSignOutOthers, { method: 'POST', answer: endedSchema });
