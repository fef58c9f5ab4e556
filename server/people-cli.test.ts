/**
 * `npm run people`: the operators' command (in this process, and once launched as they launch it) against a
 * database of its own on each engine, while a real server uses the same database: what the command does
 * is what the server does at the next request (a person added signs in, a person disabled is out).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createSiteAdminServer, type SiteAdminServer } from './app';
import { loadConfig, type DatabaseSetting } from './config';
import { connectDatabase } from './db/open';
import { secretTokenHash } from './db/secret-token';
import { main } from './people-cli';
import { describeEachEngine } from './testing/postgres';
import { childEnv, closeServer, listen, REPO_ROOT, send, tempDir } from './testing/test-helpers';

const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const PROFILE = join(REPO_ROOT, 'server', 'site-profile.example.json');
const PASSWORD = 'lantern orchard quietly ninety';

/** The settings that point the command and the server at `setting`. */
function databaseEnv(setting: DatabaseSetting): Record<string, string> {
  return setting.engine === 'sqlite' ? { DATA_DIR: dirname(setting.file) } : { DATABASE_URL: setting.url.href };
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command as an operator runs it: a child process, with tsx (its exit code and output as printed). */
function launched(env: Record<string, string>, args: string[], stdin?: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [join(REPO_ROOT, 'server', 'people-cli.ts'), ...args], {
      cwd: REPO_ROOT,
      env: childEnv({ SITE_PROFILE: PROFILE, PORT: '4999', ...env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/**
 * The same command run in this process (`main`, which the command line calls with its own input, output and
 * environment): a launch of tsx costs a second or two, and the tests run the command some fifty times. One
 * test launches it for real, for its exit codes and output.
 */
async function people(env: Record<string, string>, args: string[], stdin?: string): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    env: { SITE_PROFILE: PROFILE, PORT: '4999', ...env },
    // As the command reads a pipe: the line's end is not part of the password.
    input: () => Promise.resolve((stdin ?? '').replace(/\r?\n$/, '')),
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
  });
  return { code, stdout, stderr };
}

const signedInHeaders = (cookie: string) => ({ cookie, origin: 'http://127.0.0.1' });

describeEachEngine('npm run people', (_engine, freshDatabase) => {
  let env: Record<string, string>;
  let setting: DatabaseSetting;
  let app: SiteAdminServer;
  let server: http.Server;
  let port: number;
  let sandboxDir: string;

  beforeAll(async () => {
    setting = await freshDatabase();
    env = databaseEnv(setting);
    sandboxDir = tempDir('site-admin-people-cli-');
    // Someone first, so the server never starts in the local demo (which lasts until the first person).
    const first = await people(env, ['add', 'first@example.com', '--grant', '*:owner']);
    expect(first.code, first.stderr).toBe(0);
    app = await createSiteAdminServer(loadConfig({ ...env, SITE_PROFILE: PROFILE, SANDBOX_DATA_DIR: sandboxDir, LOG_REQUESTS: 'false' }));
    server = http.createServer((req, res) => app.handle(req, res));
    port = await listen(server);
  }, 60_000);

  afterAll(async () => {
    await closeServer(server);
    await app.close();
    rmSync(sandboxDir, { recursive: true, force: true });
  });

  let counter = 0;
  afterEach(() => void (counter += 1));
  const address = (who: string) => `${who}.${counter}@example.com`;

  async function signIn(email: string, password: string) {
    const reply = await send(port, {
      method: 'POST',
      path: '/api/sign-in/password',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ email, password }),
    });
    const cookie =
      (reply.headers['set-cookie'] ?? []).map((line) => line.split(';')[0] ?? '').find((pair) => pair.startsWith('site_admin_session=')) ??
      '';
    return { status: reply.status, cookie, text: reply.text };
  }

  const sitesOf = async (cookie: string) => {
    const reply = await send(port, { path: '/api/sites', headers: signedInHeaders(cookie) });
    return {
      status: reply.status,
      ids: reply.status === 200 ? (JSON.parse(reply.text) as { sites: { id: string }[] }).sites.map((site) => site.id) : [],
    };
  };

  it('adds a person with a password from standard input and grants; the server signs them in to those sites only', async () => {
    const email = address('editor');
    const added = await people(
      env,
      ['add', email, '--name', 'Ed Itor', '--grant', 'harbour-linen:editor', '--password-stdin'],
      `${PASSWORD}\n`,
    );
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`Added Ed Itor <${email}>: harbour-linen:editor.`);
    expect(added.stdout).not.toContain('/invite#');

    const listed = await people(env, ['list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${email.replace(/\./g, '\\.')}\\s+Ed Itor\\s+active\\s+harbour-linen:editor`));

    const session = await signIn(email, PASSWORD);
    expect(session.status, session.text).toBe(200);
    expect(await sitesOf(session.cookie)).toEqual({ status: 200, ids: ['harbour-linen'] });
  });

  it('without a password, prints a one-time invitation link of 256 bits, kept only as its hash, for 72 hours', async () => {
    const email = address('invited');
    const added = await people(env, ['add', email, '--grant', 'summit-outfitters:support']);
    expect(added.code, added.stderr).toBe(0);
    const token = /http:\/\/127\.0\.0\.1:4999\/invite#([A-Za-z0-9_-]+)\s/.exec(added.stdout)?.[1] ?? '';
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const database = connectDatabase(setting);
    try {
      const person = await database.db.selectFrom('people').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      const links = await database.db.selectFrom('one_time_links').selectAll().where('person_id', '=', person.id).execute();
      expect(links.map(({ token_hash, purpose, created_by }) => ({ token_hash, purpose, created_by }))).toEqual([
        { token_hash: secretTokenHash(token), purpose: 'invitation', created_by: null },
      ]);
      expect(links[0] && links[0].expires_at - links[0].created_at).toBe(72 * 3_600_000);
    } finally {
      await database.close();
    }
    expect((await people(env, ['list'])).stdout).toMatch(
      new RegExp(`${email.replace(/\./g, '\\.')}\\s+\\S+\\s+invited\\s+summit-outfitters:support`),
    );
    // With no password yet, no password signs them in.
    expect((await signIn(email, PASSWORD)).status).toBe(401);
  });

  it('refuses a password the rules refuse, saying why, and adds nobody', async () => {
    const email = address('weak');
    const refused = await people(env, ['add', email, '--grant', '*:support', '--password-stdin'], 'password1234567\n');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('That password cannot be used');
    expect(refused.stderr).toContain('most common passwords');
    expect((await people(env, ['list'])).stdout).not.toContain(email);
  });

  it('refuses an address taken in any case', async () => {
    const email = address('twice');
    expect((await people(env, ['add', email])).code).toBe(0);
    const again = await people(env, ['add', email.toUpperCase()]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Someone already signs in as ${email.toUpperCase()}`);
  });

  it('a command it does not understand exits 2 with what is wrong and the usage; a person it does not know exits 1', async () => {
    // Launched as an operator launches it: the exit codes and the output are the process's own.
    const unknown = await launched(env, ['promote', 'a@example.com']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('There is no command "promote"');
    expect(unknown.stderr).toContain('Usage: npm run people');

    const badGrant = await people(env, ['add', address('x'), '--grant', 'harbour-linen:admin']);
    expect(badGrant.code).toBe(2);
    expect(badGrant.stderr).toContain('the role one of owner, editor, support');

    const otherSite = await people(env, ['add', address('y'), '--grant', 'north:editor']);
    expect(otherSite.code).toBe(2);
    expect(otherSite.stderr).toContain('no site "north" here; the sites are harbour-linen, summit-outfitters, or * for every site');

    const nobody = await launched(env, ['disable', 'nobody@example.com']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('Nobody here signs in as nobody@example.com');
  });

  it('disable ends the person’s sessions at once and refuses their sign-in; enable lets them in again', async () => {
    const email = address('leaving');
    expect((await people(env, ['add', email, '--grant', '*:support', '--password-stdin'], PASSWORD)).code).toBe(0);
    const session = await signIn(email, PASSWORD);
    expect((await sitesOf(session.cookie)).status).toBe(200);

    const disabled = await people(env, ['disable', email]);
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.stdout).toContain(`Disabled ${email}; 1 session ended.`);
    expect((await sitesOf(session.cookie)).status).toBe(401);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await people(env, ['list'])).stdout).toMatch(new RegExp(`${email.replace(/\./g, '\\.')}\\s+\\S+\\s+disabled`));

    // As the docs write it: the address after --email.
    expect((await people(env, ['enable', '--email', email])).code).toBe(0);
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });

  it('reset voids the password and the sessions and prints a new link; the earlier link stops working', async () => {
    const email = address('forgot');
    const added = await people(env, ['add', email, '--grant', '*:support']);
    const firstToken = /\/invite#([A-Za-z0-9_-]+)/.exec(added.stdout)?.[1] ?? '';
    const database = connectDatabase(setting);
    try {
      const person = await database.db.selectFrom('people').select('id').where('email', '=', email).executeTakeFirstOrThrow();
      // As if they had chosen a password through the invitation and signed in.
      const { hashPassword } = await import('./auth/password-hash');
      await app.accounts.people.setPasswordHash(person.id, await hashPassword(PASSWORD), Date.now());
      const session = await signIn(email, PASSWORD);
      expect((await sitesOf(session.cookie)).status).toBe(200);

      const reset = await people(env, ['reset', email]);
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.stdout).toContain(`${email}'s password no longer works; 1 session ended.`);
      const newToken = /http:\/\/127\.0\.0\.1:4999\/invite#([A-Za-z0-9_-]+)/.exec(reset.stdout)?.[1] ?? '';
      expect(newToken).not.toBe(firstToken);
      expect((await sitesOf(session.cookie)).status).toBe(401);
      expect((await signIn(email, PASSWORD)).status).toBe(401);

      const links = await database.db
        .selectFrom('one_time_links')
        .select(['token_hash', 'purpose', 'used_at'])
        .where('person_id', '=', person.id)
        .orderBy('created_at')
        .execute();
      const usable = links.filter((link) => link.used_at === null);
      expect(usable).toEqual([{ token_hash: secretTokenHash(newToken), purpose: 'reset', used_at: null }]);
    } finally {
      await database.close();
    }
  });

  it('grant replaces the grants; the server applies them at the person’s next request', async () => {
    const email = address('moving');
    expect((await people(env, ['add', email, '--grant', 'harbour-linen:support', '--password-stdin'], PASSWORD)).code).toBe(0);
    const session = await signIn(email, PASSWORD);
    expect(await sitesOf(session.cookie)).toEqual({ status: 200, ids: ['harbour-linen'] });

    const granted = await people(env, ['grant', email, '--grant', 'summit-outfitters:editor']);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toContain(`${email}: summit-outfitters:editor.`);
    expect(await sitesOf(session.cookie)).toEqual({ status: 200, ids: ['summit-outfitters'] });

    const none = await people(env, ['grant', email]);
    expect(none.code).toBe(2);
    expect((await people(env, ['grant', email, '--none'])).code).toBe(0);
    expect((await people(env, ['list'])).stdout).toMatch(new RegExp(`${email.replace(/\./g, '\\.')}\\s+\\S+\\s+active\\s+\\(no grants\\)`));
  });

  it('records each change in the activity record, as the People page does, by the command line and the system’s user', async () => {
    const email = address('recorded');
    const run = async (args: string[], stdin?: string) => {
      const outcome = await people(env, args, stdin);
      expect(outcome.code, outcome.stderr).toBe(0);
    };
    await run(['add', email, '--name', 'Rec Orded', '--grant', 'harbour-linen:support', '--password-stdin'], PASSWORD);
    await run(['grant', email, '--grant', 'summit-outfitters:editor']);
    await run(['disable', email]);
    await run(['enable', email]);
    await run(['reset', email]);

    const rows = await app.activity.list({ action: 'person.changed', q: 'Rec Orded' }, { limit: 10 });
    const details = rows
      .reverse()
      .map((row) => ({ actor: row.actor_kind, name: row.target_name, ...(JSON.parse(row.detail ?? '{}') as Record<string, unknown>) }));
    const osUser = (await import('node:os')).userInfo().username;
    const common = { actor: 'anonymous', name: 'Rec Orded', via: 'command line', osUser };
    expect(details).toEqual([
      {
        ...common,
        change: 'added',
        person: expect.objectContaining({ email }) as unknown,
        grants: [{ siteId: 'harbour-linen', role: 'support' }],
      },
      {
        ...common,
        change: 'grants',
        person: expect.objectContaining({ email }) as unknown,
        before: [{ siteId: 'harbour-linen', role: 'support' }],
        after: [{ siteId: 'summit-outfitters', role: 'editor' }],
      },
      { ...common, change: 'disabled', person: expect.objectContaining({ email }) as unknown, ended: 0 },
      { ...common, change: 'enabled', person: expect.objectContaining({ email }) as unknown },
      { ...common, change: 'reset', person: expect.objectContaining({ email }) as unknown, ended: 0 },
    ]);
    // Never the password, nor the one-time link the reset printed.
    expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    expect(JSON.stringify(rows)).not.toContain('/invite#');
    // Written by another process into the same chain, which still verifies.
    expect((await app.activity.verify()).ok).toBe(true);
  });
});
