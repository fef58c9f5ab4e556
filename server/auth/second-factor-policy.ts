/**
 * The owners' rule on second factors: a passkey after the password, for everyone or for people holding
 * given roles. Kept in the database's settings (every instance reads the same), changed on the People page,
 * enforced at sign-in.
 */
import { isRole, ROLES, type Grant, type Role } from '../../src/contract/access';
import type { SettingsStore } from '../db/settings-store';

export interface SecondFactorPolicy {
  /** Everyone must confirm a password sign-in with a passkey. */
  everyone: boolean;
  /** People holding any of these roles (on any site) must. */
  roles: Role[];
}

export const NO_SECOND_FACTOR: SecondFactorPolicy = { everyone: false, roles: [] };

const SETTING = 'second-factor';

/** The policy from what the settings hold; anything unreadable reads as no rule. */
export function readSecondFactorPolicy(value: unknown): SecondFactorPolicy {
  if (typeof value !== 'object' || value === null) return NO_SECOND_FACTOR;
  const { everyone, roles } = value as Record<string, unknown>;
  return {
    everyone: everyone === true,
    roles: Array.isArray(roles) ? ROLES.filter((role) => roles.some((r) => r === role && isRole(r))) : [],
  };
}

export async function loadSecondFactorPolicy(settings: SettingsStore): Promise<SecondFactorPolicy> {
  return readSecondFactorPolicy(await settings.get(SETTING));
}

export async function saveSecondFactorPolicy(settings: SettingsStore, policy: SecondFactorPolicy, now: number): Promise<void> {
  await settings.set(SETTING, readSecondFactorPolicy(policy), now);
}

/** Whether a person with `grants` must add a second factor to a password, by `policy`. */
export function secondFactorRequired(policy: SecondFactorPolicy, grants: readonly Grant[]): boolean {
  return policy.everyone || grants.some((grant) => policy.roles.includes(grant.role));
}
