/**
 * Everyone, as an owner sees them (`GET /api/people`): read by the People page and by the Activity page's
 * choice of person, through this one query, so one load serves both and a change on one shows on the other.
 */
import { queryOptions } from '@tanstack/react-query';
import { PEOPLE_PATHS } from '@/contract/people-paths';
import { peopleViewSchema } from '@/contract/people';
import { callOwnApi } from './api-client';

export const peopleQuery = queryOptions({
  queryKey: ['people'] as const,
  queryFn: ({ signal }) => callOwnApi(PEOPLE_PATHS.people, { answer: peopleViewSchema }, signal),
});
