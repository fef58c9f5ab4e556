import { describe, expect, it } from 'vitest';
import { readSecondFactorOptions, readSignInAnswer } from './sign-in-answers';

const me = {
  kind: 'person',
  id: 'p1',
  email: 'o@example.com',
  displayName: 'Olive',
  grants: [{ siteId: '*', role: 'owner' }],
  managesPeople: true,
};

const site = {
  id: 'harbour-linen',
  name: 'Harbour Linen',
  mode: 'sandbox',
  siteId: '1',
  currencies: ['eur'],
  decimals: 2,
  can: ['lookup', 'create'],
};

describe('the sign-in steps’ answers, read without zod', () => {
  it('reads signed in with who, or a second step with its ways', () => {
    expect(readSignInAnswer({ result: 'signed-in', me, sites: [site] })).toEqual({ result: 'signed-in', me, sites: [site] });
    expect(readSignInAnswer({ result: 'signed-in', me: { kind: 'demo' }, sites: [] })).toEqual({
      result: 'signed-in',
      me: { kind: 'demo' },
      sites: [],
    });
    expect(readSignInAnswer({ result: 'second-factor', ways: ['passkey'] })).toEqual({ result: 'second-factor', ways: ['passkey'] });
    expect(readSignInAnswer({ result: 'second-factor', ways: ['passkey'], setUp: true })).toEqual({
      result: 'second-factor',
      ways: ['passkey'],
      setUp: true,
    });
  });

  it.each([
    ['nothing', undefined],
    ['signed in without who', { result: 'signed-in', sites: [] }],
    ['signed in without the sites', { result: 'signed-in', me }],
    ['signed in with a site it cannot read', { result: 'signed-in', me, sites: [{ id: 'harbour-linen' }] }],
    ['signed in as someone unreadable', { result: 'signed-in', me: { kind: 'person', id: 'p1' } }],
    ['a way it does not know', { result: 'second-factor', ways: ['sms'] }],
    ['setUp that is not a yes or no', { result: 'second-factor', ways: ['passkey'], setUp: 'yes' }],
    ['another result', { result: 'welcome' }],
  ])('refuses %s', (_what, value) => {
    expect(readSignInAnswer(value)).toBeNull();
  });

  it('reads the second step’s passkey options, which must be an object', () => {
    expect(readSecondFactorOptions({ setUp: false, options: { challenge: 'c' } })).toEqual({ setUp: false, options: { challenge: 'c' } });
    expect(readSecondFactorOptions({ setUp: false })).toBeNull();
    expect(readSecondFactorOptions({ options: {} })).toBeNull();
  });
});
