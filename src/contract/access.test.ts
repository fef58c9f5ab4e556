import { describe, expect, it } from 'vitest';
import { ALL_SITES, capabilitiesOn, managesPeople, readCapabilities, readMe, refusalMessage, roleOn, type Grant } from './access';

describe('what a person may do on a site', () => {
  it('follows the role of the grant on that site, or on every site', () => {
    const grants: Grant[] = [
      { siteId: 'harbour', role: 'editor' },
      { siteId: 'summit', role: 'support' },
    ];
    expect(capabilitiesOn(grants, 'harbour')).toEqual(['lookup', 'create']);
    expect(capabilitiesOn(grants, 'summit')).toEqual(['lookup']);
    expect(capabilitiesOn(grants, 'elsewhere')).toEqual([]);
    expect(capabilitiesOn([{ siteId: ALL_SITES, role: 'support' }], 'anything')).toEqual(['lookup']);
  });

  it('adds up a site’s own grant and an all-sites one, never taking anything away', () => {
    const grants: Grant[] = [
      { siteId: ALL_SITES, role: 'support' },
      { siteId: 'harbour', role: 'editor' },
    ];
    expect(capabilitiesOn(grants, 'harbour')).toEqual(['lookup', 'create']);
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
    expect(readCapabilities(['delete'])).toBeNull();
    expect(readCapabilities('lookup')).toBeNull();
  });
});
