/**
 * The slugs the whole team created on a site, from the activity record (`GET /api/created-products/slugs`),
 * each with who created it last and when: one query per site, shared by the import's duplicate check and
 * the editor's warning. A failure to read them leaves each with this browser's own list.
 */
import { useQuery } from '@tanstack/react-query';
import { CREATED_PRODUCTS_PATHS, teamSlugsSchema, type TeamSlug } from '@/contract/activity';
import type { SiteInfo } from '@/contract/site-info';
import { callOwnApi } from '@/lib/api-client';

/** Only the slugs (the import's duplicate check). */
export const slugsOnly = (created: TeamSlug[]): string[] => created.map((one) => one.slug);

/** The team's slugs on `site`, through `select` (all of them, with who and when, unless told otherwise). */
export function useTeamSlugs<T = TeamSlug[]>(site: Pick<SiteInfo, 'id'>, select?: (created: TeamSlug[]) => T) {
  return useQuery({
    queryKey: ['team-slugs', site.id],
    queryFn: async ({ signal }) =>
      (await callOwnApi(`${CREATED_PRODUCTS_PATHS.slugs}?site=${encodeURIComponent(site.id)}`, { answer: teamSlugsSchema }, signal))
        .created,
    staleTime: 60_000,
    select,
  });
}
