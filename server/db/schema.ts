/**
 * The typed schema of site-admin's own database (people, their grants, their sessions), as the latest
 * migration leaves it. The same on SQLite and PostgreSQL: text ids, times as whole milliseconds since the
 * epoch (PostgreSQL's bigint, read back as numbers by open.ts), and no booleans (a person is disabled
 * from `disabled_at` on). Queries live in a store per concept (people-store.ts, session-store.ts).
 */
import type { Insertable, Selectable } from 'kysely';

import type { Role } from '../../src/contract/access';

export { ALL_SITES, ROLES, type Role } from '../../src/contract/access';

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
  /** When the person's grants last changed (0: never): a session issued before it gets a new id. */
  grants_changed_at: number;
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
  /** The person's grants_changed_at when this id was issued. */
  grants_at: number;
  /** How the session was started: 'password', 'passkey', 'password+passkey', 'single-sign-on', 'demo'. */
  method: string;
}

export interface OneTimeLinksTable {
  /** SHA-256 of the link's token, hex. */
  token_hash: string;
  person_id: string;
  /** 'invitation' or 'reset'. */
  purpose: string;
  /** The person who made it, or null (the command line). */
  created_by: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PasskeysTable {
  /** WebAuthn's credential id, base64url. */
  credential_id: string;
  person_id: string;
  /** The credential's public key (COSE), base64url. */
  public_key: string;
  counter: number;
  /** The authenticator's transports, comma-separated. */
  transports: string;
  name: string;
  created_at: number;
  last_used_at: number | null;
}

export interface PendingStepsTable {
  /** SHA-256 of the id in the browser's cookie, hex. */
  id_hash: string;
  /** What is in progress: 'second-factor', 'passkey-sign-in', 'passkey-registration', 'single-sign-on'. */
  purpose: string;
  person_id: string | null;
  /** JSON: what the step needs to finish (a challenge, a state and nonce, ...). */
  data: string;
  expires_at: number;
}

export interface SettingsTable {
  name: string;
  /** JSON. */
  value: string;
  updated_at: number;
}

export interface ActivityTable {
  /** The entry's place in the chain: 1, 2, 3, ... with no gaps (pruning removes only from the start). */
  seq: number;
  /** When, in milliseconds since the epoch (UTC). */
  at: number;
  /** 'person', 'demo' (the local demo, no sign-in) or 'anonymous' (a failed sign-in, say). */
  actor_kind: string;
  person_id: string | null;
  /** The person's display name at the time. */
  person_name: string | null;
  site_id: string | null;
  /** 'product.create', 'product.create.outcome', 'case.lookup', 'sign-in', ... (server/activity/actions.ts). */
  action: string;
  target_name: string | null;
  target_slug: string | null;
  form_id: string | null;
  case_id: string | null;
  /** The entry this one completes (a create's outcome refers to the create). */
  refers_to: number | null;
  request_id: string | null;
  address: string | null;
  user_agent: string | null;
  outcome: string;
  status: number | null;
  duration_ms: number | null;
  /** JSON: what the action keeps (a create's body sent, the platform's answer, an import's counts). */
  detail: string | null;
  prev_hash: string;
  hash: string;
}

export interface ImportsTable {
  /** Random and url-safe. */
  id: string;
  site_id: string;
  /** Who started it: 'person' or 'demo'; their id and name at the time. */
  started_by_kind: string;
  started_by_id: string | null;
  started_by_name: string | null;
  created_at: number;
  updated_at: number;
  file_name: string;
  /** JSON: fileName, source, delimiter, headers, rows (written once). */
  file: string;
  /** JSON: mapping, fixes, concurrency, started, products (the dry run's count). */
  work: string;
  /** Moved on by every change of `work`: a write naming an older one is refused (409). */
  version: number;
  /** The run's lease: a random token the running page holds, who it is, since when, until when. */
  runner_token: string | null;
  runner_kind: string | null;
  runner_id: string | null;
  runner_name: string | null;
  runner_since: number | null;
  lease_until: number | null;
  /** When a run was first claimed (null: never sent anything). */
  ran_at: number | null;
  /** When every product was answered ('finished'); the import stays open until discarded. */
  ended_at: number | null;
  ended_how: string | null;
}

export interface ImportProductsTable {
  import_id: string;
  /** The product's key in the file (its first row). */
  product_key: string;
  /** 'sending', 'created', 'rejected', 'unknown', 'skipped' (no row: not sent yet). */
  status: string;
  /** JSON: the body sent and the answer, the refusal's status and details, or why the outcome is unknown. */
  detail: string | null;
  /** The create's entry in the activity record. */
  create_seq: number | null;
  updated_at: number;
}

export interface CaseWorkTable {
  site_id: string;
  form_id: string;
  case_id: string;
  /** One of CASE_STATUSES (src/contract/case-work.ts). */
  status: string;
  /** A person's id, or null: nobody. */
  assignee_id: string | null;
  updated_at: number;
  updated_by_id: string | null;
  updated_by_name: string | null;
}

export interface CaseNotesTable {
  /** Random and url-safe. */
  id: string;
  site_id: string;
  form_id: string;
  case_id: string;
  /** The author's person id (null: the local demo) and name at the time. */
  author_id: string | null;
  author_name: string;
  created_at: number;
  updated_at: number;
  /** The note's text as it is now; earlier texts are in case_note_versions. */
  text: string;
}

export interface CaseNoteVersionsTable {
  note_id: string;
  /** 1 for the text first written, 2 for the first edit, ... */
  version: number;
  text: string;
  at: number;
  by_id: string | null;
  by_name: string;
}

export interface CaseSeenTable {
  site_id: string;
  form_id: string;
  /** A person's id, or 'demo'. */
  person_key: string;
  case_id: string;
  seen_at: number;
}

export interface InboxWatchesTable {
  site_id: string;
  form_id: string;
  person_key: string;
  /** Cases received from this time on (ms) that the person has not seen are new to them. */
  since: number;
  /** When the person last asked for counts: a form nobody asks about is not read. */
  asked_at: number;
}

export interface InboxPollsTable {
  site_id: string;
  form_id: string;
  /** The instance that reads the list for everyone, and until when (ms) its lease runs. */
  holder: string | null;
  lease_until: number | null;
  /** When the list was last read (ms), and how it went ('ok', 'empty', 'failed: ...'). */
  polled_at: number | null;
  outcome: string | null;
  /** JSON: [[case id, received at in ms], ...] of the newest page, newest first. */
  newest: string | null;
  total: number | null;
}

export interface RoleCapabilitiesTable {
  /** A site id of the profile, or ALL_SITES. */
  site_id: string;
  role: string;
  capability: string;
  /** 1: allowed, 0: withheld; no row: the role's default. */
  allowed: number;
  changed_at: number;
  changed_by: string | null;
}

export interface ApprovalRulesTable {
  site_id: string;
  /** JSON: the kinds of write the rule holds back ([] or no row: off). */
  writes: string;
  /** 1 or 2. */
  approvals: number;
  /** JSON: the roles that may approve on the site. */
  approvers: string;
  changed_at: number;
  changed_by_id: string | null;
  changed_by_name: string | null;
}

export interface ChangesTable {
  /** Random and url-safe. */
  id: string;
  site_id: string;
  /** 'create', 'update' or 'import'. */
  kind: string;
  /** 1 when asked, moved on by each edit of its author. */
  version: number;
  /** 'pending' (approved is worked out from the approvals), 'sending', 'sent', 'rejected', 'withdrawn', 'expired', 'returned'. */
  state: string;
  title: string;
  /** An update's product id. */
  product: string | null;
  /** An update's If-Match: the fingerprint of the product as read. */
  base: string | null;
  /** An update's product as read (the platform's JSON text). */
  before_text: string | null;
  /** The exact body text a create or an update sends. */
  body: string | null;
  /** JSON: an import's items, each with its body exact and its hash. */
  items: string | null;
  /** `sha256-<hex>` of the body (of the import's set). */
  hash: string;
  revert_of: number | null;
  import_id: string | null;
  author_kind: string;
  /** The person's id, or 'demo'. */
  author_id: string;
  author_name: string;
  asked_at: number;
  updated_at: number;
  expires_at: number;
  /** Why it was rejected or returned. */
  reason: string | null;
  /** An owner's override: the version it lets be sent, who, when and why. */
  override_version: number | null;
  override_by_id: string | null;
  override_by_name: string | null;
  override_at: number | null;
  override_reason: string | null;
  /** The activity record's entry of the write that sent it. */
  sent_seq: number | null;
}

export interface ChangeApprovalsTable {
  change_id: string;
  version: number;
  person_id: string;
  person_name: string;
  at: number;
}

export interface ChangeEventsTable {
  change_id: string;
  /** 1, 2, 3, ... in the order the steps happened. */
  n: number;
  /** 'asked', 'edited', 'approved', ... (changeEventSchema's actions). */
  action: string;
  version: number;
  by_id: string | null;
  by_name: string | null;
  at: number;
  reason: string | null;
  /** The step's entry in the activity record. */
  seq: number | null;
  /** For 'sent': the write's own entry. */
  write_seq: number | null;
}

export interface Database {
  people: PeopleTable;
  grants: GrantsTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
  passkeys: PasskeysTable;
  pending_steps: PendingStepsTable;
  settings: SettingsTable;
  activity: ActivityTable;
  imports: ImportsTable;
  import_products: ImportProductsTable;
  case_work: CaseWorkTable;
  case_notes: CaseNotesTable;
  case_note_versions: CaseNoteVersionsTable;
  case_seen: CaseSeenTable;
  inbox_watches: InboxWatchesTable;
  inbox_polls: InboxPollsTable;
  role_capabilities: RoleCapabilitiesTable;
  approval_rules: ApprovalRulesTable;
  changes: ChangesTable;
  change_approvals: ChangeApprovalsTable;
  change_events: ChangeEventsTable;
}

export type PersonRow = Selectable<PeopleTable>;
export type NewPersonRow = Insertable<PeopleTable>;
export type SessionRow = Selectable<SessionsTable>;
