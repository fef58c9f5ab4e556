import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setSiteScope } from './site-scope';
import { storedValue, useStoredValue } from './storage';

const KEY = 'test:numbers';
const numbers = (storage?: () => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null) =>
  storedValue<number[]>({
    key: KEY,
    parse: (json) => (Array.isArray(json) ? json.filter((n): n is number => typeof n === 'number') : undefined),
    fallback: [],
    isEmpty: (list) => list.length === 0,
    ...(storage ? { storage } : {}),
  });

beforeEach(() => {
  localStorage.clear();
  setSiteScope(null);
});

describe('storedValue', () => {
  it('reads the fallback when nothing is stored, and round-trips what is written as JSON', () => {
    const store = numbers();
    expect(store.read()).toEqual([]);
    expect(store.write([1, 2])).toBe(true);
    expect(localStorage.getItem(KEY)).toBe('[1,2]');
    expect(numbers().read()).toEqual([1, 2]);
  });

  it('reads what an earlier version or a hand edit left through its parser, and the fallback for the unreadable', () => {
    localStorage.setItem(KEY, '[1,"two",3]');
    expect(numbers().read()).toEqual([1, 3]);
    localStorage.setItem(KEY, '{"not":"a list"}');
    expect(numbers().read()).toEqual([]);
    localStorage.setItem(KEY, '{not json');
    expect(numbers().read()).toEqual([]);
  });

  it('gives the same object until the stored text changes', () => {
    const store = numbers();
    store.write([1]);
    const first = store.read();
    expect(store.read()).toBe(first);
    store.write([1, 2]);
    expect(store.read()).not.toBe(first);
  });

  it('removes the key for an empty value, and on clear', () => {
    const store = numbers();
    store.write([1]);
    store.write([]);
    expect(localStorage.getItem(KEY)).toBeNull();
    store.write([1]);
    expect(store.clear()).toBe(true);
    expect(localStorage.getItem(KEY)).toBeNull();
    expect(store.read()).toEqual([]);
  });

  it('survives a storage that refuses: reads the fallback, says writes failed, keeps the value for the page', () => {
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = numbers(() => refusing);
    expect(store.read()).toEqual([]);
    expect(store.write([7])).toBe(false);
    expect(store.read()).toEqual([7]);
    expect(store.clear()).toBe(false);
    expect(store.read()).toEqual([]);
    const none = numbers(() => null);
    expect(none.write([1])).toBe(false);
    expect(none.read()).toEqual([1]);
  });

  it('tells subscribers of writes here and of changes from another tab', () => {
    const store = numbers();
    function Numbers() {
      return <output aria-label="numbers">{useStoredValue(store).join(',')}</output>;
    }
    render(<Numbers />);
    const shown = () => screen.getByRole('status', { name: 'numbers' });
    act(() => void store.write([4, 5]));
    expect(shown()).toHaveTextContent('4,5');
    act(() => {
      localStorage.setItem(KEY, '[6]');
      window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    });
    expect(shown()).toHaveTextContent('6');
    act(() => {
      localStorage.setItem('another-key', '[9]');
      localStorage.setItem(KEY, '[8]');
      window.dispatchEvent(new StorageEvent('storage', { key: 'another-key' }));
    });
    expect(shown()).toHaveTextContent('6');
  });
});

describe('one value per site', () => {
  it('keeps each site’s value apart, and the only site of a single-site server under the plain key', () => {
    const store = numbers();
    store.write([1]);
    setSiteScope('harbour-linen');
    expect(store.read()).toEqual([]);
    store.write([2]);
    setSiteScope('summit-outfitters');
    expect(store.read()).toEqual([]);
    setSiteScope('harbour-linen');
    expect(store.read()).toEqual([2]);
    setSiteScope(null);
    expect(store.read()).toEqual([1]);
    expect(localStorage.getItem(KEY)).toBe('[1]');
    expect(localStorage.getItem(`${KEY}@harbour-linen`)).toBe('[2]');
  });
});
