import { describe, expect, it } from 'vitest';
import { actorNameOf, actorOf, starterOf, type Identity } from './identity';

const ada: Identity = {
  kind: 'person',
  id: 'p1',
  email: 'ada@example.com',
  displayName: 'Ada Lovelace',
  grants: [],
  overrides: [],
  session: {
    idHash: 'h',
    personId: 'p1',
    createdAt: 0,
    lastSeenAt: 0,
    idleExpiresAt: 1,
    expiresAt: 1,
    userAgent: null,
    address: null,
    grantsAt: 0,
    method: 'password',
    email: 'ada@example.com',
    displayName: 'Ada Lovelace',
    grantsChangedAt: 0,
  },
  sessionId: 'x',
};

describe('who is written into the record', () => {
  it('is the person by id and name, the local demo, or anonymous', () => {
    expect(actorOf(ada)).toEqual({ kind: 'person', id: 'p1', name: 'Ada Lovelace' });
    expect(actorOf({ kind: 'demo' })).toEqual({ kind: 'demo' });
    expect(actorOf({ kind: 'nobody' })).toEqual({ kind: 'anonymous' });
    expect(actorOf(undefined)).toEqual({ kind: 'anonymous' });
  });
  it('starts an import only as a person or the local demo', () => {
    expect(starterOf(ada)).toEqual({ kind: 'person', id: 'p1', name: 'Ada Lovelace' });
    expect(starterOf({ kind: 'demo' })).toEqual({ kind: 'demo' });
    expect(starterOf({ kind: 'nobody' })).toBeUndefined();
  });
  it('names a row’s actor as the lists show it', () => {
    expect(actorNameOf('person', 'Ada Lovelace')).toBe('Ada Lovelace');
    expect(actorNameOf('demo', null)).toBe('Local demo');
    expect(actorNameOf('anonymous', null)).toBe('Anonymous');
  });
});
