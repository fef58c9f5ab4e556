// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { addCreated, CREATED_KEY, getCreated, listCreated, MAX_CREATED } from './created-products';

beforeEach(() => localStorage.clear());

const entry = (localId: string, name: string) => ({
  localId,
  createdAt: 1767225600000,
  response: { id: '501' },
  body: { name, enabled: 'true' },
});

describe('created products', () => {
  it('loads the list an existing user stored before, in the stored format', () => {
    localStorage.setItem(CREATED_KEY, JSON.stringify([entry('b', 'Second'), entry('a', 'First')]));
    expect(listCreated().map((c) => c.body.name)).toEqual(['Second', 'First']);
    expect(getCreated('a')).toEqual(entry('a', 'First'));
    expect(getCreated('nope')).toBeUndefined();
  });

  it('keeps the readable entries of a list with one it cannot read', () => {
    localStorage.setItem(CREATED_KEY, JSON.stringify([entry('b', 'Second'), { localId: 'x', body: { name: 3 } }, entry('a', 'First')]));
    expect(listCreated().map((c) => c.localId)).toEqual(['b', 'a']);
  });

  it('adds the newest first, in the same format, and keeps the last fifty', () => {
    for (let i = 0; i < MAX_CREATED + 2; i += 1) addCreated({ name: `Mug ${i}` }, {});
    const list = listCreated();
    expect(list).toHaveLength(MAX_CREATED);
    expect(list[0]?.body.name).toBe(`Mug ${MAX_CREATED + 1}`);
    expect(list.at(-1)?.body.name).toBe('Mug 2');
    const stored = JSON.parse(localStorage.getItem(CREATED_KEY) ?? '[]') as unknown[];
    expect(stored[0]).toEqual({
      localId: list[0]?.localId,
      createdAt: expect.any(Number),
      response: {},
      body: { name: `Mug ${MAX_CREATED + 1}` },
    });
  });

  it('reads an unreadable list as empty', () => {
    localStorage.setItem(CREATED_KEY, '{oops');
    expect(listCreated()).toEqual([]);
  });
});
