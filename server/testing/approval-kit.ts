/**
 * What the tests of four eyes share: the whole server on a database of either engine, in front of a
 * recording stand-in platform that holds one product (1042), with a clock the test moves; people added
 * straight to the database with their grants and a session each (no password: Argon2id is the slow part,
 * and these tests are about who may approve what); our API and a site's writes as the app's pages send them.
 */
import type { Grant } from '../../src/contract/access';
import { APPROVAL_PATHS, APPROVED_CHANGE_HEADER, changePath, type Change } from '../../src/contract/approvals';
import { productFingerprint } from '../../src/contract/products';
import { API_BASE_PATH } from '../../src/contract/site-api';
import type { DatabaseSetting } from '../config';
import { SESSION_COOKIE } from '../auth/session-cookie';
import { recordingPlatform, type RecordingPlatform } from './recording-platform';
import { send, startWholeServer } from './test-helpers';

export const PRODUCT_ID = '1042';
export const PRODUCT_PATH = `${API_BASE_PATH}/ecommerce/products/${PRODUCT_ID}`;
export const CREATE_PATH = `${API_BASE_PATH}/ecommerce/products/create`;
const DAY = 86_400_000;

/** The product as the stand-in platform holds it, named `name`. */
export const productRecord = (name: string) =>
  JSON.stringify({ id: PRODUCT_ID, name, slug: 'linen-throw', enabled: 'true', updated_at: '1767225600' });

export interface Answer {
  status: number;
  text: string;
  json: unknown;
  contentType: string | undefined;
}

export async function startApprovalServer(database: DatabaseSetting, env: Record<string, string> = {}) {
  const clock = { t: Date.UTC(2026, 10, 2, 9) };
  /** What the platform holds of product 1042 (the test changes it to make an update stale). */
  const platformState: { product: string; writeAnswer: { status: number; body: string } | null } = {
    product: productRecord('Linen throw'),
    /** How the platform answers a write instead of taking it, while set (the test sets it, and clears it). */
    writeAnswer: null,
  };
  const platform: RecordingPlatform = await recordingPlatform((request) => {
    if (request.method === 'GET' && request.url.endsWith(`/ecommerce/products/${PRODUCT_ID}`))
      return { status: 200, body: platformState.product };
    if ((request.method === 'PUT' || request.method === 'POST') && platformState.writeAnswer) return platformState.writeAnswer;
    if (request.method === 'PUT') return { status: 200, body: request.body };
    if (request.method === 'POST') return { status: 200, body: JSON.stringify({ id: '2001' }) };
    return { status: 404, body: JSON.stringify({ error: 'Not Found', message: 'No such thing', code: 404 }) };
  });
  const running = await startWholeServer(
    {
      SITE_API_BASE_URL: `http://127.0.0.1:${platform.port}/api/site/v2`,
      SITE_API_KEY: 'key-approvals',
      SITE_ID: '3003',
      // Long enough that moving the clock past a change's expiry leaves the sessions alive.
      SESSION_IDLE_MINUTES: String(7 * 24 * 60),
      SESSION_MAX_HOURS: String(30 * 24),
      ...env,
    },
    { database, now: () => clock.t, prefix: 'site-admin-approvals-' },
  );
  let people = 0;
  const { accounts } = running.site;

  /** A person with `grants`, and the Cookie header of a session of theirs. */
  async function person(grants: readonly Grant[], name?: string) {
    people += 1;
    const displayName = name ?? `Person ${people}`;
    const added = await accounts.people.add({ email: `person-${people}@example.com`, displayName, now: clock.t });
    if (!added.ok) throw new Error(`person ${people} could not be added`);
    await accounts.people.setGrants(added.person.id, grants, clock.t);
    return { id: added.person.id, name: displayName, cookie: await sessionOf(added.person.id) };
  }

  /** A new session of `personId` (after their grants changed, a session issued before would be renewed). */
  async function sessionOf(personId: string): Promise<string> {
    const found = await accounts.people.get(personId);
    const { id } = await accounts.sessions.create({
      personId,
      now: clock.t,
      idleMs: 30 * DAY,
      absoluteMs: 30 * DAY,
      grantsAt: found?.grantsChangedAt ?? clock.t,
    });
    return `${SESSION_COOKIE}=${id}`;
  }

  /** Our API, as the app's pages call it. */
  async function api(cookie: string, method: string, path: string, body?: unknown): Promise<Answer> {
    const reply = await send(running.port, {
      method,
      path,
      headers: {
        cookie,
        'sec-fetch-site': 'same-origin',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return answerOf(reply);
  }

  /** A create or an update as the app sends it: `body` exactly, the change's header when given. */
  async function write(
    cookie: string,
    what: { kind: 'create' | 'update'; body: string; change?: string; base?: string; headers?: Record<string, string> },
  ): Promise<Answer> {
    const base = what.base ?? (await productFingerprint(JSON.parse(platformState.product)));
    const reply = await send(running.port, {
      method: what.kind === 'create' ? 'POST' : 'PUT',
      path: what.kind === 'create' ? CREATE_PATH : PRODUCT_PATH,
      headers: {
        cookie,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
        ...(what.kind === 'update' ? { 'if-match': base } : {}),
        ...(what.change !== undefined ? { [APPROVED_CHANGE_HEADER]: what.change } : {}),
        ...what.headers,
      },
      body: what.body,
    });
    return answerOf(reply);
  }

  /** The change `id` as `who` reads it. */
  const read = async (id: string, who: { cookie: string }) =>
    (await api(who.cookie, 'GET', changePath(APPROVAL_PATHS.one, id))).json as Change;

  /** The site's writes the stand-in platform received. */
  const writesReceived = () => platform.received.filter((request) => request.method !== 'GET');

  return {
    running,
    platform,
    platformState,
    clock,
    person,
    sessionOf,
    api,
    write,
    writesReceived,
    read,
    fingerprint: () => productFingerprint(JSON.parse(platformState.product)),
    async stop() {
      await running.stop();
      await platform.close();
    },
  };
}

export type ApprovalServer = Awaited<ReturnType<typeof startApprovalServer>>;

/** A reply as the tests read it: its status, its text, its JSON (null when it is not JSON) and its content type. */
function answerOf(reply: { status: number; text: string; headers: Record<string, string | string[] | undefined> }): Answer {
  let json: unknown = null;
  try {
    json = JSON.parse(reply.text);
  } catch {
    json = null;
  }
  const contentType = reply.headers['content-type'];
  return { status: reply.status, text: reply.text, json, contentType: typeof contentType === 'string' ? contentType : undefined };
}
