/**
 * Two instances on one database (as behind a load balancer) that each keep the sessions they have checked
 * in memory (db/session-changes.ts), and the people command beside them: a person disabled, signed out or
 * given other grants through one instance or the command is treated so on the other at their very next
 * request, on SQLite and PostgreSQL, and on PostgreSQL also while the instances' listening connections are
 * cut (every request then reads the database) and once they listen again.
 */
import { sql } from 'kysely';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseSetting } from '../config';
import { connectDatabase, type AppDatabase } from '../db/open';
import { main } from '../people-cli';
import { describeEachEngine } from '../testing/postgres';
import { REPO_ROOT, send, signInWithPassword, startWholeServer, waitFor } from '../testing/test-helpers';

const PROFILE = join(REPO_ROOT, 'server', 'site-profile.example.json');
const PASSWORD = 'kept in memory, heard everywhere';

type Instance = Awaited<ReturnType<typeof startWholeServer>>;

function databaseEnv(setting: DatabaseSetting): Record<string, string> {
  return setting.engine === 'sqlite' ? { DATA_DIR: dirname(setting.file) } : { DATABASE_URL: setting.url.href };
}

describeEachEngine('a change to a person, heard by every instance at the next request', (engine, freshDatabase) => {
  let env: Record<string, string>;
  let admin: AppDatabase;
  const instances: Instance[] = [];

  /** `npm run people` in this process, against the instances' database. */
  async function people(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await main(args, {
      env: { SITE_PROFILE: PROFILE, PORT: '4999', ...env },
      input: () => Promise.resolve(stdin),
      out: (line) => (stdout += `${line}\n`),
      err: (line) => (stderr += `${line}\n`),
    });
    return { code, stdout, stderr };
  }

  beforeAll(async () => {
    const setting = await freshDatabase();
    env = databaseEnv(setting);
    // Someone first, so neither instance starts in the local demo.
    expect((await people(['add', 'first@example.com', '--grant', '*:owner'])).code).toBe(0);
    for (let n = 0; n < 2; n += 1) instances.push(await startWholeServer({ ...env, SITE_PROFILE: PROFILE }, { database: setting }));
    admin = connectDatabase(setting);
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
    await admin.close();
  }, 60_000);

  let added = 0;
  /** A new person with `grants` (site:role), signed in on the first instance: their cookie. */
  async function signedIn(grants: string[]): Promise<{ email: string; cookie: string }> {
    added += 1;
    const email = `person-${added}@example.com`;
    const made = await people(['add', email, ...grants.flatMap((grant) => ['--grant', grant]), '--password-stdin'], PASSWORD);
    expect(made.code, made.stderr).toBe(0);
    const reply = await signInWithPassword(instances[0]?.port ?? 0, email, PASSWORD);
    expect(reply.status, reply.text).toBe(200);
    const cookie = (reply.headers['set-cookie'] ?? [])
      .map((line) => line.split(';')[0] ?? '')
      .find((pair) => pair.startsWith('site_admin_session='));
    return { email, cookie: cookie ?? '' };
  }

  /** GET /api/sites on instance `n`: the status, and the sites listed. */
  async function sites(n: number, cookie: string): Promise<{ status: number; ids: string[] }> {
    const reply = await send(instances[n]?.port ?? 0, { path: '/api/sites', headers: { cookie, origin: 'http://127.0.0.1' } });
    const ids = reply.status === 200 ? (JSON.parse(reply.text) as { sites: { id: string }[] }).sites.map((site) => site.id) : [];
    return { status: reply.status, ids };
  }

  /** Requests on both instances, so that each has the session in memory when the change comes. */
  async function inUseOnBoth(cookie: string) {
    for (const n of [0, 1, 0, 1]) expect((await sites(n, cookie)).status).toBe(200);
  }

  const personId = async (email: string) => (await instances[0]?.site.accounts.people.getByEmail(email))?.id ?? '';

  it('refuses a person disabled through one instance on both at the next request', async () => {
    const { email, cookie } = await signedIn(['harbour-linen:editor']);
    await inUseOnBoth(cookie);
    await instances[0]?.site.accounts.people.setDisabled(await personId(email), true, Date.now());
    expect((await sites(1, cookie)).status).toBe(401);
    expect((await sites(0, cookie)).status).toBe(401);
  });

  it('refuses a person disabled through the people command on both instances at the next request', async () => {
    const { email, cookie } = await signedIn(['harbour-linen:editor']);
    await inUseOnBoth(cookie);
    const disabled = await people(['disable', email]);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect((await sites(1, cookie)).status).toBe(401);
    expect((await sites(0, cookie)).status).toBe(401);
  });

  it('applies grants changed through the people command at the next request on the other instance', async () => {
    const { email, cookie } = await signedIn(['harbour-linen:editor']);
    await inUseOnBoth(cookie);
    expect((await sites(1, cookie)).ids).toEqual(['harbour-linen']);
    const granted = await people(['grant', email, '--grant', 'summit-outfitters:support']);
    expect(granted.code, granted.stderr).toBe(0);
    expect(await sites(1, cookie)).toEqual({ status: 200, ids: ['summit-outfitters'] });
  });

  it('refuses every session of a person signed out everywhere on one instance, on the other at the next request', async () => {
    const { email, cookie } = await signedIn(['harbour-linen:editor']);
    await inUseOnBoth(cookie);
    expect(await instances[0]?.site.accounts.sessions.deleteAllOf(await personId(email))).toBe(1);
    expect((await sites(1, cookie)).status).toBe(401);
  });

  it('refuses a session signed out on one instance on the other at the next request', async () => {
    const { cookie } = await signedIn(['harbour-linen:editor']);
    await inUseOnBoth(cookie);
    const out = await send(instances[0]?.port ?? 0, {
      method: 'POST',
      path: '/api/sign-out',
      headers: { cookie, 'sec-fetch-site': 'same-origin', origin: `http://127.0.0.1:${instances[0]?.port ?? 0}` },
    });
    expect(out.status, out.text).toBeLessThan(300);
    expect((await sites(1, cookie)).status).toBe(401);
  });

  if (engine === 'postgres') {
    const listeners = async () => {
      const { rows } = await sql<{
        pid: number;
      }>`select pid from pg_stat_activity where application_name = 'site-admin session changes'`.execute(admin.db);
      return rows.map((row) => row.pid);
    };

    it('refuses a person disabled while the instances’ listening connections are cut, and once they listen again', async () => {
      const first = await signedIn(['harbour-linen:editor']);
      const second = await signedIn(['harbour-linen:editor']);
      await inUseOnBoth(first.cookie);
      await inUseOnBoth(second.cookie);
      // Both instances listen; cut them (the server side ends each, as a restart or a fail-over would).
      await waitFor(async () => (await listeners()).length === 2, { timeoutMs: 10_000, what: 'both instances listening' });
      for (const pid of await listeners()) await sql`select pg_terminate_backend(${pid}, 5000)`.execute(admin.db);
      const disabled = await people(['disable', first.email]);
      expect(disabled.code, disabled.stderr).toBe(0);
      expect((await sites(1, first.cookie)).status).toBe(401);
      expect((await sites(0, first.cookie)).status).toBe(401);
      expect((await sites(1, second.cookie)).status).toBe(200);

      // They listen again by themselves; what they kept from before is not trusted, and changes are heard.
      await waitFor(async () => (await listeners()).length === 2, { timeoutMs: 20_000, what: 'both instances listening again' });
      await inUseOnBoth(second.cookie);
      expect((await people(['disable', second.email])).code).toBe(0);
      expect((await sites(1, second.cookie)).status).toBe(401);
      expect((await sites(0, second.cookie)).status).toBe(401);
    });
  }
});

describeEachEngine('the local demo, ended on every instance by the first person added', (_engine, freshDatabase) => {
  let env: Record<string, string>;
  const instances: Instance[] = [];

  beforeAll(async () => {
    const setting = await freshDatabase();
    env = databaseEnv(setting);
    for (let n = 0; n < 2; n += 1) instances.push(await startWholeServer({ ...env, SITE_PROFILE: PROFILE }, { database: setting }));
  }, 60_000);

  afterAll(async () => {
    for (const instance of instances) await instance.stop();
  }, 60_000);

  const status = async (n: number) => (await send(instances[n]?.port ?? 0, { path: '/api/sites' })).status;

  it('asks everyone to sign in on both instances from the request after the people command adds someone', async () => {
    for (const n of [0, 1, 0, 1]) expect(await status(n)).toBe(200);
    const added = await main(['add', 'first@example.com', '--grant', '*:owner'], {
      env: { SITE_PROFILE: PROFILE, PORT: '4999', ...env },
      input: () => Promise.resolve(''),
      out: () => undefined,
      err: () => undefined,
    });
    expect(added).toBe(0);
    expect(await status(1)).toBe(401);
    expect(await status(0)).toBe(401);
  });
});
