import { describe, expect, it } from 'vitest';
import {
  actorName,
  ALL_SITES,
  capabilitiesOfAsker,
  capabilitiesOn,
  managesPeople,
  may,
  mayUse,
  readCapabilities,
  readMe,
  refusalMessage,
  roleMay,
  roleOn,
  seesEveryone,
  type CapabilityOverride,
  type Grant,
} from './access';

describe('what a person may do on a site', () => {
  it('follows the role of the grant on that site, or on every site', () => {
    const grants: Grant[] = [
      { siteId: 'harbour', role: 'editor' },
      { siteId: 'summit', role: 'support' },
    ];
    expect(capabilitiesOn(grants, 'harbour')).toEqual(['lookup', 'create', 'export']);
    expect(capabilitiesOn(grants, 'summit')).toEqual(['lookup']);
    expect(capabilitiesOn(grants, 'elsewhere')).toEqual([]);
    expect(capabilitiesOn([{ siteId: ALL_SITES, role: 'support' }], 'anything')).toEqual(['lookup']);
  });

  it('adds up a site’s own grant and an all-sites one, never taking anything away', () => {
    const grants: Grant[] = [
      { siteId: ALL_SITES, role: 'support' },
      { siteId: 'harbour', role: 'editor' },
    ];
    expect(capabilitiesOn(grants, 'harbour')).toEqual(['lookup', 'create', 'export']);
    expect(capabilitiesOn(grants, 'summit')).toEqual(['lookup']);
    expect(roleOn(grants, 'harbour')).toBe('editor');
    expect(roleOn(grants, 'summit')).toBe('support');
  });

  it('lets only an owner of every site manage people', () => {
    expect(managesPeople([{ siteId: ALL_SITES, role: 'owner' }])).toBe(true);
    expect(managesPeople([{ siteId: 'harbour', role: 'owner' }])).toBe(false);
    expect(managesPeople([{ siteId: ALL_SITES, role: 'editor' }])).toBe(false);
  });

  it('says what is allowed and what is not', () => {
    expect(refusalMessage('Harbour Linen', ['lookup'], 'create')).toBe(
      'You may look up cases on Harbour Linen but not create products there.',
    );
    expect(refusalMessage('Harbour Linen', [], 'lookup')).toMatch(/^You have no role on Harbour Linen/);
  });
});

describe('what whoever asks may do: may()', () => {
  const support = { kind: 'person', grants: [{ siteId: 'summit', role: 'support' }] } as const;
  it('lets the local demo do everything on every site', () => {
    expect(may({ kind: 'demo' }, 'anything', 'create')).toBe(true);
    expect(mayUse({ kind: 'demo' }, 'anything')).toBe(true);
    expect(capabilitiesOfAsker({ kind: 'demo' }, 'anything')).toEqual(['lookup', 'create', 'export']);
    expect(seesEveryone({ kind: 'demo' })).toBe(true);
  });
  it('lets a person do what their grants on the site allow, and use only the sites they have a role on', () => {
    expect(may(support, 'summit', 'lookup')).toBe(true);
    expect(may(support, 'summit', 'create')).toBe(false);
    expect(mayUse(support, 'summit')).toBe(true);
    expect(mayUse(support, 'harbour')).toBe(false);
    expect(seesEveryone(support)).toBe(false);
    expect(seesEveryone({ kind: 'person', grants: [{ siteId: ALL_SITES, role: 'owner' }] })).toBe(true);
  });
  it('lets nobody signed in do anything', () => {
    expect(may({ kind: 'nobody' }, 'summit', 'lookup')).toBe(false);
    expect(mayUse(undefined, 'summit')).toBe(false);
    expect(capabilitiesOfAsker({ kind: 'nobody' }, 'summit')).toEqual([]);
    expect(seesEveryone(undefined)).toBe(false);
  });
  it('names who did something in words', () => {
    expect(actorName({ kind: 'person', name: 'Ada' })).toBe('Ada');
    expect(actorName({ kind: 'demo' })).toBe('Local demo');
    expect(actorName({ kind: 'anonymous' })).toBe('Anonymous');
  });
});

describe('reading /api/sites', () => {
  it('reads the demo and a person, and nothing else', () => {
    expect(readMe({ kind: 'demo' })).toEqual({ kind: 'demo' });
    const person = {
      kind: 'person',
      id: 'p',
      email: 'a@b.c',
      displayName: 'A',
      grants: [{ siteId: '*', role: 'owner' }],
      managesPeople: true,
    };
    expect(readMe({ ...person, extra: 1 })).toEqual(person);
    expect(readMe({ ...person, grants: [{ siteId: '*', role: 'admin' }] })).toBeNull();
    expect(readMe({ kind: 'root' })).toBeNull();
    expect(readMe(null)).toBeNull();
  });

  it('reads capabilities in one order, and refuses unknown ones', () => {
    expect(readCapabilities(['create', 'lookup'])).toEqual(['lookup', 'create']);
    expect(readCapabilities(['export', 'lookup'])).toEqual(['lookup', 'export']);
    expect(readCapabilities(['delete'])).toBeNull();
    expect(readCapabilities('lookup')).toBeNull();
  });
});

describe('owners’ overrides of what a role may do', () => {
  const overrides: CapabilityOverride[] = [
    { siteId: ALL_SITES, role: 'support', capability: 'export', allowed: true },
    { siteId: 'harbour', role: 'support', capability: 'export', allowed: false },
    { siteId: 'summit', role: 'editor', capability: 'export', allowed: false },
  ];
  it('takes a site’s own override over an all-sites one, and that over the role’s default', () => {
    expect(roleMay('support', 'export', 'harbour', overrides)).toBe(false);
    expect(roleMay('support', 'export', 'summit', overrides)).toBe(true);
    expect(roleMay('editor', 'export', 'summit', overrides)).toBe(false);
    expect(roleMay('editor', 'export', 'harbour', overrides)).toBe(true);
    expect(roleMay('support', 'export', 'summit')).toBe(false);
    expect(roleMay('support', 'lookup', 'harbour', overrides)).toBe(true);
  });
  it('adds up the grants that cover a site, each with its role’s overrides', () => {
    const support: Grant[] = [{ siteId: ALL_SITES, role: 'support' }];
    expect(capabilitiesOn(support, 'harbour', overrides)).toEqual(['lookup']);
    expect(capabilitiesOn(support, 'summit', overrides)).toEqual(['lookup', 'export']);
    const both: Grant[] = [...support, { siteId: 'harbour', role: 'editor' }];
    expect(capabilitiesOn(both, 'harbour', overrides)).toEqual(['lookup', 'create', 'export']);
    expect(may({ kind: 'person', grants: support, overrides }, 'summit', 'export')).toBe(true);
    expect(may({ kind: 'person', grants: support }, 'summit', 'export')).toBe(false);
    // The local demo has no roles to adjust.
    expect(may({ kind: 'demo' }, 'harbour', 'export')).toBe(true);
  });
});
