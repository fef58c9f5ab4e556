/**
 * Your account's calls: the account (`queryOptions`, key and fetcher together) and its changes. Answers
 * are our own server's, of the contract's shapes (src/contract/people.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { PEOPLE_PATHS, peoplePath } from '@/contract/access';
import type { AccountView } from '@/contract/people';
import { callOwnApi } from '@/lib/api-client';

export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: async ({ signal }) => (await callOwnApi(PEOPLE_PATHS.account, {}, signal)) as AccountView,
});

export const renameSelf = (displayName: string) => callOwnApi(PEOPLE_PATHS.account, { method: 'PATCH', body: { displayName } });

export const changePassword = async (body: { currentPassword: string; newPassword: string }) =>
  (await callOwnApi(PEOPLE_PATHS.accountPassword, { method: 'POST', body })) as { ended: number };

export const endSession = (handle: string) => callOwnApi(peoplePath(PEOPLE_PATHS.accountSession, { handle }), { method: 'DELETE' });

export const endOtherSessions = async () => (await callOwnApi(PEOPLE_PATHS.accountSignOutOthers, { method: 'POST' })) as { ended: number };
