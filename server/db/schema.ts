/**
 * The typed schema of site-admin's own database (people, their grants, their sessions), as the latest
 * migration leaves it. The same on SQLite and PostgreSQL: text ids, times as whole milliseconds since the
 * epoch (PostgreSQL's bigint, read back as numbers by open.ts), and no booleans (a person is disabled
 * from `disabled_at` on). Queries live in a store per concept (people-store.ts, session-store.ts).
 */
import type { Insertable, Selectable } from 'kysely';

/** What a grant lets a person do: owner (everything, manages people), editor (products and cases), support (cases). */
export const ROLES = ['owner', 'editor', 'support'] as const;
export type Role = (typeof ROLES)[number];

/** The site id of a grant on every site of the profile. */
export const ALL_SITES = '*';

export interface PeopleTable {
  /** A random UUID: instances sharing PostgreSQL never hand out the same one. */
  id: string;
  /** As the person typed it, to show. */
  email: string;
  /** The e-mail address trimmed, NFC and lower case: unique, so one address is one person whatever its case. */
  email_key: string;
  display_name: string;
  /** Argon2id's encoded hash; null for a person who signs in otherwise, or has not chosen one yet. */
  password_hash: string | null;
  /** When the person was disabled; null while they are active. */
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface GrantsTable {
  person_id: string;
  /** A site id of the profile, or ALL_SITES. One role per person and site. */
  site_id: string;
  role: Role;
}

export interface SessionsTable {
  /** SHA-256 of the session id, hex: the id itself is only ever in the person's cookie. */
  id_hash: string;
  person_id: string;
  created_at: number;
  last_seen_at: number;
  /** The session ends at the earlier of these: idle (moved on by use) and absolute (fixed at sign-in). */
  idle_expires_at: number;
  expires_at: number;
  user_agent: string | null;
  address: string | null;
}

export interface Database {
  people: PeopleTable;
  grants: GrantsTable;
  sessions: SessionsTable;
}

export type PersonRow = Selectable<PeopleTable>;
export type NewPersonRow = Insertable<PeopleTable>;
export type SessionRow = Selectable<SessionsTable>;
