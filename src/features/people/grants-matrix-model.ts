/**
 * A person's grants as the People page edits them: a matrix of sites (every site, then each site of the
 * profile) × roles, one choice per row, "none" where they have no role. Converted to the wire's list of
 * grants and back, pure.
 */
import { ALL_SITES, isRole, type Grant, type Role } from '@/contract/access';

export type Choice = Role | 'none';
/** The role chosen for each row: ALL_SITES and every site id of the page. */
export type GrantMatrix = Record<string, Choice>;

export function matrixFromGrants(grants: readonly Grant[], siteIds: readonly string[]): GrantMatrix {
  const matrix: GrantMatrix = Object.fromEntries([ALL_SITES, ...siteIds].map((id) => [id, 'none']));
  for (const grant of grants) matrix[grant.siteId] = grant.role;
  return matrix;
}

/** The grants a matrix holds, every site first, then the sites in the page's order; "none" rows left out. */
export function grantsFromMatrix(matrix: GrantMatrix, siteIds: readonly string[]): Grant[] {
  return [ALL_SITES, ...siteIds, ...Object.keys(matrix).filter((id) => id !== ALL_SITES && !siteIds.includes(id))].flatMap((siteId) => {
    const role = matrix[siteId];
    return isRole(role) ? [{ siteId, role }] : [];
  });
}
