/**
 * Who a request is from, at the bottom of the server: the pipeline, our own API, the activity record and
 * the imports all read it, and none of them needs the accounts service (server/auth/accounts.ts) that
 * finds it out. What each may do with it is the contract's (`may` in src/contract/access.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { actorName, type Actor, type CapabilityOverride, type Grant } from '../src/contract/access';
import type { ActiveSession } from './db/session-store';

/** Who a request is from. */
export type Identity =
  /** The local demo: loopback, nobody in the database. */
  | { kind: 'demo' }
  | {
      kind: 'person';
      id: string;
      email: string;
      displayName: string;
      grants: Grant[];
      /** The owners' overrides of what roles may do, as read with the session: `may` applies them to the grants. */
      overrides: readonly CapabilityOverride[];
      session: ActiveSession;
      /** The id in the browser's cookie (after a rotation, the new one). */
      sessionId: string;
    }
  /** No session, or one that has ended (timed out, signed out, the person disabled). */
  | { kind: 'nobody' };

/** A person signed in. */
export type PersonIdentity = Extract<Identity, { kind: 'person' }>;

/**
 * Finds out who `req` is from (auth/accounts.ts does, against the database); it may set a renewed
 * session's cookie on `res`.
 */
/**
 * Who `req` is from; `asUse: false` for a page's ask in the background (the navigation's counts), which
 * checks the session without marking it used, so it never keeps an idle session alive.
 */
export type Identify = (req: IncomingMessage, res: ServerResponse, options?: { asUse?: boolean }) => Promise<Identity>;

/** Who an entry of the activity record is from: a person, the local demo, or nobody signed in. */
export function actorOf(who: Identity | undefined): Actor {
  if (who?.kind === 'person') return { kind: 'person', id: who.id, name: who.displayName };
  if (who?.kind === 'demo') return { kind: 'demo' };
  return { kind: 'anonymous' };
}

/** Who starts or runs an import: a person or the local demo (nobody signed in reaches no import). */
export type Starter = Exclude<Actor, { kind: 'anonymous' }>;

export function starterOf(who: Identity): Starter | undefined {
  const actor = actorOf(who);
  return actor.kind === 'anonymous' ? undefined : actor;
}

/**
 * The name of an actor kept as a row's kind and name columns (the activity record's `actor_kind` and
 * `person_name`, an import's starter and runner), as the lists show it.
 */
export function actorNameOf(kind: string | null, name: string | null): string {
  return actorName(kind === 'person' ? { kind, name: name ?? '' } : { kind: kind === 'demo' ? 'demo' : 'anonymous' });
}
