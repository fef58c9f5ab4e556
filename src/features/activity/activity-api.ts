/**
 * The Activity page's reads of the record (`queryOptions`, key and fetcher together), each answer parsed
 * with the contract's schemas (src/contract/activity.ts). Everyone an owner may pick is `peopleQuery`
 * (src/lib/people-query.ts), shared with the People page.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ACTIVITY_PATHS, activityEntrySchema, activityPageSchema, chainStateSchema, updateFollowUpsSchema } from '@/contract/activity';
import { callOwnApi } from '@/lib/api-client';

/** Entries in a page of the list. */
const PAGE = 100;

/** One entry with its detail; not asked for until one is chosen. */
export const activityEntryQuery = (seq: number | null) =>
  queryOptions({
    queryKey: ['activity-entry', seq],
    queryFn: ({ signal }) => callOwnApi(ACTIVITY_PATHS.entry.replace(':seq', String(seq)), { answer: activityEntrySchema }, signal),
    enabled: seq !== null,
  });

/** Whether the whole chain verifies. */
export const chainQuery = queryOptions({
  queryKey: ['activity-chain'],
  queryFn: ({ signal }) => callOwnApi(ACTIVITY_PATHS.verify, { answer: chainStateSchema }, signal),
  staleTime: 60_000,
});

/** The entries a filter shows (`params`, as the API takes it), newest first, a page at a time. */
export const activityPagesQuery = (params: URLSearchParams) =>
  infiniteQueryOptions({
    queryKey: ['activity', params.toString()],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams(params);
      query.set('limit', String(PAGE));
      if (pageParam !== null) query.set('before', String(pageParam));
      return callOwnApi(`${ACTIVITY_PATHS.list}?${query.toString()}`, { answer: activityPageSchema }, signal);
    },
    getNextPageParam: (last) => last.next,
  });

/** What became of a product update (its outcome, its reverts); asked for when the update's details open. */
export const updateFollowUpsQuery = (seq: number | null) =>
  queryOptions({
    queryKey: ['activity-update', seq],
    queryFn: ({ signal }) =>
      callOwnApi(ACTIVITY_PATHS.updateFollowUps.replace(':seq', String(seq)), { answer: updateFollowUpsSchema }, signal),
    enabled: seq !== null,
  });
