/**
 * The People page's calls (owners only): everyone (`queryOptions`), and each change. Answers are our own
 * server's, of the contract's shapes (src/contract/people.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { PEOPLE_PATHS, peoplePath, type Grant } from '@/contract/access';
import type { InviteBody, InvitedView, LinkView, PeopleView, SecondFactorRule } from '@/contract/people';
import { callOwnApi } from '@/lib/api-client';

export const peopleQuery = queryOptions({
  queryKey: ['people'],
  queryFn: async ({ signal }) => (await callOwnApi(PEOPLE_PATHS.people, {}, signal)) as PeopleView,
});

export const invitePerson = async (body: InviteBody) => (await callOwnApi(PEOPLE_PATHS.people, { method: 'POST', body })) as InvitedView;

export const setGrants = (id: string, grants: Grant[]) =>
  callOwnApi(peoplePath(PEOPLE_PATHS.personGrants, { id }), { method: 'PUT', body: { grants } });

export const setDisabled = (id: string, disabled: boolean) =>
  callOwnApi(peoplePath(PEOPLE_PATHS.person, { id }), { method: 'PATCH', body: { disabled } });

export const resetPerson = async (id: string) =>
  (await callOwnApi(peoplePath(PEOPLE_PATHS.personReset, { id }), { method: 'POST' })) as LinkView;

export const signOutPerson = async (id: string) =>
  (await callOwnApi(peoplePath(PEOPLE_PATHS.personSignOut, { id }), { method: 'POST' })) as { ended: number };

export const saveSecondFactor = (rule: SecondFactorRule) => callOwnApi(PEOPLE_PATHS.secondFactor, { method: 'PUT', body: rule });
