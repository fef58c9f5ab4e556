/**
 * `npm run people -- <command>`: people for operators, on the database the server uses (the same
 * DATA_DIR or DATABASE_URL; migrated first, as at start). It works while servers run: each of them reads
 * people and sessions from the database on every request, so a person disabled here is out at their next
 * click. Run without a command for the usage below.
 */
import { userInfo } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ALL_SITES, INVITE_PAGE, isRole, ROLES, type Grant } from '../src/contract/access';
import { ONE_TIME_LINK_MS } from '../src/contract/people';
import { createActivityStore } from './activity/activity-store';
import { checkNewPassword } from './auth/password-policy';
import { hashPassword } from './auth/password-hash';
import { loadSecondFactorPolicy, secondFactorRequired } from './auth/second-factor-policy';
import { ConfigError, databaseOf, readSiteProfile, SETTINGS, SINGLE_SITE_ID } from './config';
import { createLinkStore } from './db/link-store';
import { openDatabase } from './db/open';
import { createPeopleStore, type Person } from './db/people-store';
import { createSessionStore } from './db/session-store';
import { createSettingsStore } from './db/settings-store';

const USAGE = `Usage: npm run people -- <command> [options]

  add <email> [--name <name>] [--grant <site>:<role>]... [--password-stdin]
      Adds a person. With --password-stdin their password is read from standard input;
      without it, prints a one-time invitation link (valid 72 hours) to choose one.
  list
      Everyone, with their status and grants.
  disable <email>     Disables a person and ends their sessions (they are out at their next request).
  enable <email>      Lets a disabled person sign in again.
  reset <email>       Voids their password and sessions; prints a new one-time link (valid 72 hours).
  grant <email> --grant <site>:<role>... | --none
      Replaces a person's grants.

  <email> may also be given as --email <email>.
  <site> is a site id of the profile, or * for every site; <role> is ${ROLES.join(', ')}.
  --origin <url>  The address people open site-admin at, for links (default: http://HOST:PORT).

Exit codes: 0 done, 1 refused or failed (the message says why), 2 the command was not understood.`;

/** A mistake in how the command was written: its message, then the usage; exit code 2. */
class UsageError extends Error {}
/** The command was understood but cannot be done (no such person, a weak password); exit code 1. */
class Refusal extends Error {}

interface Site {
  id: string;
  name: string;
}

/** The sites grants may name: the profile's (read without its keys), or the one site of today's settings. */
function sitesOf(env: NodeJS.ProcessEnv): Site[] {
  const file = env.SITE_PROFILE?.trim();
  if (!file) return [{ id: SINGLE_SITE_ID, name: 'the site' }];
  return readSiteProfile(file).sites.map((site) => ({ id: site.id, name: site.name }));
}

function originOf(env: NodeJS.ProcessEnv, given: string | undefined): string {
  if (given) {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw new UsageError(`--origin must be an address such as https://admin.example.com, not "${given}".`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--origin must start with https:// or http://.');
    return url.origin;
  }
  const host = env.HOST?.trim() || SETTINGS.HOST;
  const port = env.PORT?.trim() || String(SETTINGS.PORT);
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** `site:role` options as grants; the site must be one of the profile's, or *. */
function grantsOf(values: readonly string[], sites: readonly Site[]): Grant[] {
  return values.map((value) => {
    const at = value.lastIndexOf(':');
    const siteId = at > 0 ? value.slice(0, at).trim() : '';
    const role = at > 0 ? value.slice(at + 1).trim() : '';
    if (!siteId || !isRole(role)) {
      throw new UsageError(`--grant ${value}: write it as <site>:<role>, the role one of ${ROLES.join(', ')} (e.g. '*:owner').`);
    }
    if (siteId !== ALL_SITES && !sites.some((site) => site.id === siteId)) {
      throw new UsageError(
        `--grant ${value}: no site "${siteId}" here; the sites are ${sites.map((site) => site.id).join(', ')}, or * for every site.`,
      );
    }
    return { siteId, role };
  });
}

const describeGrants = (grants: readonly Grant[]) =>
  grants.length === 0
    ? '(no grants)'
    : grants.map((grant) => `${grant.siteId === ALL_SITES ? '*' : grant.siteId}:${grant.role}`).join(', ');

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One line, as `echo` or a password manager's pipe gives it: the line's end is not part of the password.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/** The operating system's user running the command, for the record; null where the system cannot say. */
function osUser(): string | null {
  try {
    return userInfo().username;
  } catch {
    return null;
  }
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ?? [];
  return rows
    .map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '))
    .join('\n');
}

/** What the command reads and writes: standard input, output and error, and the environment. */
export interface CommandIo {
  env: NodeJS.ProcessEnv;
  input(): Promise<string>;
  out(line: string): void;
  err(line: string): void;
}

async function run(argv: readonly string[], io: CommandIo): Promise<void> {
  const { env, out } = io;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        email: { type: 'string' },
        grant: { type: 'string', multiple: true },
        none: { type: 'boolean' },
        'password-stdin': { type: 'boolean' },
        origin: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  // The address as the command's argument, or as --email (both are written in the docs).
  const [email, ...extra] = values.email === undefined ? rest : [values.email, ...rest];
  if (values.help || command === 'help') {
    out(USAGE);
    return;
  }
  if (!command) throw new UsageError('Which command?');
  const commands = ['add', 'list', 'disable', 'enable', 'reset', 'grant'];
  if (!commands.includes(command)) throw new UsageError(`There is no command "${command}"; the commands are ${commands.join(', ')}.`);
  if (command === 'list' ? email !== undefined : email === undefined || extra.length > 0) {
    throw new UsageError(command === 'list' ? 'list takes no e-mail address.' : `${command} takes one e-mail address.`);
  }
  const sites = sitesOf(env);
  const grants = grantsOf(values.grant ?? [], sites);
  const origin = originOf(env, values.origin);
  if (command === 'grant' && grants.length === 0 && !values.none) {
    throw new UsageError('grant replaces the person’s grants: give them with --grant <site>:<role>, or --none to take every one away.');
  }

  const opened = await openDatabase(databaseOf(env));
  try {
    const { db } = opened;
    const people = createPeopleStore(db);
    const sessions = createSessionStore(db);
    const links = createLinkStore(db);
    const activity = createActivityStore(opened);
    const now = Date.now();
    // Recorded like an owner's change on the People page (person.changed, with whom and what), by the
    // command line: no person is signed in here, so the entry names the system's user instead.
    const changed = async (person: Person, change: string, detail: Record<string, unknown> = {}) => {
      await activity.append({
        at: now,
        actor: { kind: 'anonymous' },
        action: 'person.changed',
        outcome: 'ok',
        target: { name: person.displayName },
        detail: {
          change,
          person: { id: person.id, name: person.displayName, email: person.email },
          ...detail,
          via: 'command line',
          osUser: osUser(),
        },
      });
    };
    const personNamed = async (address: string): Promise<Person> => {
      const person = await people.getByEmail(address);
      if (!person) throw new Refusal(`Nobody here signs in as ${address}; "npm run people -- list" shows everyone.`);
      return person;
    };
    const link = async (person: Person, purpose: 'invitation' | 'reset') => {
      const { token } = await links.create({ personId: person.id, purpose, createdBy: null, now, ttlMs: ONE_TIME_LINK_MS });
      const hours = ONE_TIME_LINK_MS / 3_600_000;
      out(`Send ${person.email} this link (it works once, for ${hours} hours): ${origin}${INVITE_PAGE}#${token}`);
    };

    switch (command) {
      case 'add': {
        const address = email ?? '';
        if (!/^[^\s@]+@[^\s@]+$/.test(address.trim())) throw new UsageError(`"${address}" is not an e-mail address.`);
        const name = values.name?.trim() || address.split('@')[0] || address;
        let passwordHash: string | null = null;
        if (values['password-stdin']) {
          const password = await io.input();
          const policy = await loadSecondFactorPolicy(createSettingsStore(db));
          const problems = checkNewPassword(password, { name, email: address, secondFactorRequired: secondFactorRequired(policy, grants) });
          if (problems.length > 0) {
            throw new Refusal(`That password cannot be used:${problems.map((problem) => `\n  - ${problem.message}`).join('')}`);
          }
          passwordHash = await hashPassword(password);
        }
        const added = await people.add({ email: address, displayName: name, passwordHash, now });
        if (!added.ok) throw new Refusal(`Someone already signs in as ${address}.`);
        if (grants.length > 0) await people.setGrants(added.person.id, grants, now);
        await changed(added.person, passwordHash ? 'added' : 'invited', { grants });
        out(`Added ${added.person.displayName} <${added.person.email}>: ${describeGrants(grants)}.`);
        if (grants.length === 0) out('They have no role on any site yet: give them one with "npm run people -- grant".');
        if (!passwordHash) await link(added.person, 'invitation');
        return;
      }
      case 'list': {
        const everyone = await people.list();
        if (everyone.length === 0) {
          out('Nobody yet: add someone with "npm run people -- add <email> --grant \'*:owner\'".');
          return;
        }
        const rows = [['E-MAIL', 'NAME', 'STATUS', 'GRANTS']];
        const open = await links.openLinks(now);
        for (const person of everyone) {
          // As the People page says it.
          const status =
            person.disabledAt !== null ? 'disabled' : person.passwordHash === null && open.has(person.id) ? 'invited' : 'active';
          rows.push([person.email, person.displayName, status, describeGrants(await people.grantsOf(person.id))]);
        }
        out(table(rows));
        return;
      }
      case 'disable': {
        const person = await personNamed(email ?? '');
        const ended = (await sessions.listOf(person.id, now)).length;
        // Their sessions end in the same transaction.
        await people.setDisabled(person.id, true, now);
        await changed(person, 'disabled', { ended });
        out(`Disabled ${person.email}; ${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`);
        return;
      }
      case 'enable': {
        const person = await personNamed(email ?? '');
        await people.setDisabled(person.id, false, now);
        await changed(person, 'enabled');
        out(`${person.email} may sign in again.`);
        return;
      }
      case 'reset': {
        const person = await personNamed(email ?? '');
        await people.setPasswordHash(person.id, null, now);
        const ended = await sessions.deleteAllOf(person.id);
        await changed(person, 'reset', { ended });
        out(`${person.email}'s password no longer works; ${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`);
        await link(person, 'reset');
        return;
      }
      case 'grant': {
        const person = await personNamed(email ?? '');
        // setGrants marks the change: their sessions get a new id and the new grants at their next request.
        const before = await people.grantsOf(person.id);
        await people.setGrants(person.id, values.none ? [] : grants, now);
        await changed(person, 'grants', { before, after: values.none ? [] : grants });
        out(`${person.email}: ${describeGrants(values.none ? [] : grants)}.`);
        return;
      }
    }
  } finally {
    await opened.close();
  }
}

/** Runs the command on `argv`; its exit code: 0 done, 1 refused, 2 not understood (the usage printed). */
export async function main(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    await run(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof Refusal || error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

// Run as a command (`npm run people`), not when imported by its tests.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2), {
    env: process.env,
    input: readStdin,
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
}
