/**
 * The People page's changes (owners only); everyone is read through `peopleQuery` (src/lib/people-query.ts),
 * which the Activity page shares. Answers are parsed with the contract's schemas (src/contract/people.ts).
 */
import { queryOptions } from '@tanstack/react-query';
import { type Grant } from '@/contract/access';
import { PEOPLE_PATHS, peoplePath, ROLE_OVERRIDES_PATH } from '@/contract/people-paths';
import {
  endedSchema,
  invitedViewSchema,
  linkViewSchema,
  roleCapabilitiesViewSchema,
  type InviteBody,
  type RoleCapabilityChange,
  type SecondFactorRule,
} from '@/contract/people';
import { callOwnApi } from '@/lib/api-client';

export const invitePerson = (body: InviteBody) => callOwnApi(PEOPLE_PATHS.people, { method: 'POST', body, answer: invitedViewSchema });

export const setGrants = (id: string, grants: Grant[]) =>
  callOwnApi(peoplePath(PEOPLE_PATHS.personGrants, { id }), { method: 'PUT', body: { grants } });

export const setDisabled = (id: string, disabled: boolean) =>
  callOwnApi(peoplePath(PEOPLE_PATHS.person, { id }), { method: 'PATCH', body: { disabled } });

export const resetPerson = (id: string) =>
  callOwnApi(peoplePath(PEOPLE_PATHS.personReset, { id }), { method: 'POST', answer: linkViewSchema });

export const signOutPerson = (id: string) =>
  callOwnApi(peoplePath(PEOPLE_PATHS.personSignOut, { id }), { method: 'POST', answer: endedSchema });

export const saveSecondFactor = (rule: SecondFactorRule) => callOwnApi(PEOPLE_PATHS.secondFactor, { method: 'PUT', body: rule });

/** What each role may do: the owners' overrides of the roles' defaults (`GET`), and one change of them (`PUT`). */
export const roleCapabilitiesQuery = queryOptions({
  queryKey: ['role-capabilities'] as const,
  queryFn: ({ signal }) => callOwnApi(ROLE_OVERRIDES_PATH, { answer: roleCapabilitiesViewSchema }, signal),
});

export const changeRoleCapability = (change: RoleCapabilityChange) =>
  callOwnApi(ROLE_OVERRIDES_PATH, { method: 'PUT', body: change, answer: roleCapabilitiesViewSchema });
