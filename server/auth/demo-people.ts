/**
 * The stakeholder demo (DEMO_PEOPLE, sandbox sites only; config.ts refuses it with a live site): three
 * people, one of each kind, whose passwords the sign-in page shows, so anyone can see what each role may
 * do. Put in place at every start: a restart brings them back to these passwords and grants, whatever was
 * changed meanwhile, and leaves everyone else alone.
 */
import { ALL_SITES, type DemoPerson, type Grant } from '../../src/contract/access';
import type { SiteInfo } from '../../src/contract/site-info';
import type { Accounts } from './accounts';
import { hashPassword, verifyPassword } from './password-hash';

interface DemoSeed extends DemoPerson {
  displayName: string;
  grants: Grant[];
}

/** Names the sites in a sentence: "Harbour Linen and Summit Outfitters". */
function namesOf(sites: readonly SiteInfo[]): string {
  const names = sites.map((site) => site.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * The demo's people on these sites: an owner of every site, an editor of the first shop, and support on
 * every site (each by its own grant, as an owner would give it on the People page). The passwords are
 * long passphrases, as the password rules ask of everyone.
 */
export function demoPeopleOf(sites: readonly SiteInfo[]): DemoSeed[] {
  const first = sites[0];
  if (!first) return [];
  return [
    {
      email: 'olivia@demo.example',
      displayName: 'Olivia Marsh',
      password: 'demo owner sees every shop',
      description: 'Owner of every site; manages people',
      grants: [{ siteId: ALL_SITES, role: 'owner' }],
    },
    {
      email: 'eddie@demo.example',
      displayName: 'Eddie Park',
      password: 'demo editor makes products',
      description: `Editor of ${first.name} only`,
      grants: [{ siteId: first.id, role: 'editor' }],
    },
    {
      email: 'sam@demo.example',
      displayName: 'Sam Rivera',
      password: 'demo support reads cases',
      description: `Support on ${namesOf(sites)}`,
      grants: sites.map((site) => ({ siteId: site.id, role: 'support' as const })),
    },
  ];
}

const sameGrants = (a: readonly Grant[], b: readonly Grant[]) => {
  const key = (grants: readonly Grant[]) =>
    grants
      .map((grant) => `${grant.siteId}\u0000${grant.role}`)
      .sort()
      .join('\u0001');
  return key(a) === key(b);
};

/** Adds the demo's people, or brings them back to the demo's passwords, grants and names, and active. */
export async function seedDemoPeople(accounts: Accounts, sites: readonly SiteInfo[]): Promise<DemoPerson[]> {
  const t = accounts.now();
  const seeds = demoPeopleOf(sites);
  for (const seed of seeds) {
    const existing = await accounts.people.getByEmail(seed.email);
    let personId: string;
    if (!existing) {
      const added = await accounts.people.add({
        email: seed.email,
        displayName: seed.displayName,
        passwordHash: await hashPassword(seed.password),
        now: t,
      });
      if (!added.ok) throw new Error(`The demo person ${seed.email} could not be added.`);
      personId = added.person.id;
    } else {
      personId = existing.id;
      const same = existing.passwordHash !== null && (await verifyPassword(existing.passwordHash, seed.password));
      if (!same) {
        await accounts.people.setPasswordHash(personId, await hashPassword(seed.password), t);
        await accounts.sessions.deleteAllOf(personId);
      }
      if (existing.disabledAt !== null) await accounts.people.setDisabled(personId, false, t);
      if (existing.displayName !== seed.displayName) await accounts.people.setDisplayName(personId, seed.displayName, t);
    }
    // Only a real change is written: setGrants gives every session of the person a new id.
    if (!sameGrants(await accounts.people.grantsOf(personId), seed.grants)) await accounts.people.setGrants(personId, seed.grants, t);
  }
  return seeds.map(({ email, password, description }) => ({ email, password, description }));
}
