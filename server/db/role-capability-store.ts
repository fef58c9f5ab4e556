/**
 * The owners' overrides of what a role may do on a site (role_capabilities): read whole (a handful of rows:
 * sites × adjustable roles × adjustable capabilities), set one, or remove one (the role's default again).
 * Each write marks a change (migration 0008-role-capability-changes), so every instance reads them again before it
 * answers its next request from memory (session-store.ts keeps them beside the sessions).
 */
import type { Kysely } from 'kysely';
import { CAPABILITIES, isRole, type Capability, type CapabilityOverride } from '../../src/contract/access';
import type { Database } from './schema';

export interface StoredOverride extends CapabilityOverride {
  changedAt: number;
  /** The id of the person who set it; null when written otherwise (an operator's SQL). */
  changedBy: string | null;
}

const isCapability = (value: string): value is Capability => CAPABILITIES.some((capability) => capability === value);

export function createRoleCapabilityStore(db: Kysely<Database>) {
  return {
    /** Every override, by site, role and capability; rows naming a role or capability this version does not know are left out. */
    async list(): Promise<StoredOverride[]> {
      const rows = await db
        .selectFrom('role_capabilities')
        .select(['site_id', 'role', 'capability', 'allowed', 'changed_at', 'changed_by'])
        .orderBy('site_id')
        .orderBy('role')
        .orderBy('capability')
        .execute();
      return rows.flatMap((row) => {
        const { role, capability } = row;
        if (!isRole(role) || !isCapability(capability)) return [];
        return [
          {
            siteId: row.site_id,
            role,
            capability,
            allowed: Number(row.allowed) === 1,
            changedAt: Number(row.changed_at),
            changedBy: row.changed_by,
          },
        ];
      });
    },

    /** The override of `role`'s `capability` on `siteId`; undefined when there is none (the default holds). */
    async get(siteId: string, role: string, capability: string): Promise<boolean | undefined> {
      const row = await db
        .selectFrom('role_capabilities')
        .select('allowed')
        .where('site_id', '=', siteId)
        .where('role', '=', role)
        .where('capability', '=', capability)
        .executeTakeFirst();
      return row ? Number(row.allowed) === 1 : undefined;
    },

    /** Sets the override (`allowed`), or removes it (null: the default again). */
    async set(
      change: { siteId: string; role: string; capability: string; allowed: boolean | null },
      now: number,
      by: string | null,
    ): Promise<void> {
      const { siteId, role, capability, allowed } = change;
      if (allowed === null) {
        await db
          .deleteFrom('role_capabilities')
          .where('site_id', '=', siteId)
          .where('role', '=', role)
          .where('capability', '=', capability)
          .execute();
        return;
      }
      const value = allowed ? 1 : 0;
      await db
        .insertInto('role_capabilities')
        .values({ site_id: siteId, role, capability, allowed: value, changed_at: now, changed_by: by })
        .onConflict((oc) => oc.columns(['site_id', 'role', 'capability']).doUpdateSet({ allowed: value, changed_at: now, changed_by: by }))
        .execute();
    },
  };
}

export type RoleCapabilityStore = ReturnType<typeof createRoleCapabilityStore>;
