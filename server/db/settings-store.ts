/**
 * The server's own settings in its database, shared by every instance: JSON values by name. Knows nothing
 * of what they mean; its callers read them through their own checks.
 */
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Database } from './schema';

export function createSettingsStore(db: Kysely<Database>) {
  const store = {
    /** The value of `name` as stored (parsed JSON), or undefined when it was never set. */
    async get(name: string): Promise<unknown> {
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    },

    async set(name: string, value: unknown, now: number): Promise<void> {
      const text = JSON.stringify(value);
      await db
        .insertInto('settings')
        .values({ name, value: text, updated_at: now })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: text, updated_at: now }))
        .execute();
    },

    /**
     * A random key kept under `name`, made the first time it is asked for: the first instance to start
     * writes it, every other one reads the same (a second writer's insert is ignored, then it reads).
     */
    async secretKey(name: string, now: number): Promise<Buffer> {
      const made = randomBytes(32).toString('base64url');
      await db
        .insertInto('settings')
        .values({ name, value: JSON.stringify(made), updated_at: now })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const kept = await store.get(name);
      if (typeof kept !== 'string') throw new Error(`The setting "${name}" is not a key.`);
      return Buffer.from(kept, 'base64url');
    },
  };
  return store;
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;
