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

describe('the sign-in steps’ answers, read without zod', () => {
  it('reads signed in with who, or a second step with its ways', () => {
    expect(readSignInAnswer({ result: 'signed-in', me })).toEqual({ result: 'signed-in', me });
    expect(readSignInAnswer({ result: 'signed-in', me: { kind: 'demo' } })).toEqual({ result: 'signed-in', me: { kind: 'demo' } });
    expect(readSignInAnswer({ result: 'second-factor', ways: ['passkey'] })).toEqual({ result: 'second-factor', ways: ['passkey'] });
    expect(readSignInAnswer({ result: 'second-factor', ways: ['passkey'], setUp: true })).toEqual({
      result: 'second-factor',
      ways: ['passkey'],
      setUp: true,
    });
  });

  it.each([
    ['nothing', undefined],
    ['signed in without who', { result: 'signed-in' }],
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
