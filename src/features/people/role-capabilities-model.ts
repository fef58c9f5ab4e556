/**
 * The owners' overrides of what each role may do, as the People page shows them: for a site (or every
 * site) and a role, whether it may do an adjustable capability, and where that comes from (the role's
 * default, the every-site setting, or this site's own); and the change a switch makes. A switch put back to
 * what the site would inherit removes the override rather than storing a copy of the inherited value, so a
 * later change on every site reaches each site that did not say otherwise.
 */
import { ALL_SITES, roleMay, type AdjustableCapability, type AdjustableRole, type CapabilityOverride } from '@/contract/access';
import type { RoleCapabilityChange } from '@/contract/people';

export type SettingSource = 'default' | 'every-site' | 'this-site';

export interface CapabilitySetting {
  allowed: boolean;
  source: SettingSource;
}

/** What `role` may do of `capability` on `siteId` (or ALL_SITES), and why. */
export function settingOf(
  overrides: readonly CapabilityOverride[],
  siteId: string,
  role: AdjustableRole,
  capability: AdjustableCapability,
): CapabilitySetting {
  const own = overrides.find((o) => o.siteId === siteId && o.role === role && o.capability === capability);
  if (own) return { allowed: own.allowed, source: 'this-site' };
  const everySite =
    siteId === ALL_SITES ? undefined : overrides.find((o) => o.siteId === ALL_SITES && o.role === role && o.capability === capability);
  if (everySite) return { allowed: everySite.allowed, source: 'every-site' };
  return { allowed: roleMay(role, capability, ALL_SITES), source: 'default' };
}

/** The change that makes `role` allowed (or not) `capability` on `siteId`: no override when that is what it inherits. */
export function changeTo(
  overrides: readonly CapabilityOverride[],
  siteId: string,
  role: AdjustableRole,
  capability: AdjustableCapability,
  allowed: boolean,
): RoleCapabilityChange {
  const inherited = siteId === ALL_SITES ? roleMay(role, capability, ALL_SITES) : roleMay(role, capability, ALL_SITES, overrides);
  return { siteId, role, capability, allowed: allowed === inherited ? null : allowed };
}
