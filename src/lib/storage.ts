/**
 * One typed store for everything the app keeps in this browser (localStorage): the product draft, the
 * recent lookups, the created products. Each value is JSON under its own key, read back through its own
 * parser, because what is stored may come from an older version, another tab or a hand edit. A missing,
 * unreadable or refused storage never breaks a page: reading gives the fallback, writing says it failed,
 * and a value the browser refused to store still lasts while the page is open.
 */
import { useSyncExternalStore } from 'react';
import { scopedKey } from './site-scope';

export interface StoredValue<T> {
  readonly key: string;
  /** The stored value, or the fallback when there is none or it cannot be read. Same object until it changes. */
  read(): T;
  /** Stores the value (an empty one removes the key); false when the browser refused. */
  write(value: T): boolean;
  /** Removes the value; false when the browser refused. */
  clear(): boolean;
  /** Calls `listener` after every write through this store, and when another tab changes the key. */
  subscribe(listener: () => void): () => void;
}

export interface StoredValueOptions<T> {
  /** The localStorage key. Keep it when the format changes compatibly; a new key is a new value. */
  key: string;
  /** Turns stored JSON into a value, or undefined when it cannot. Gets anything JSON can hold. */
  parse: (json: unknown) => T | undefined;
  fallback: T;
  /** A value not worth keeping (an empty list, a blank draft): writing it removes the key. */
  isEmpty?: (value: T) => boolean;
  /** Where to store; the browser's localStorage by default (null where it is unavailable). */
  storage?: () => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
}

function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Some browsers throw on access when storage is disabled.
    return null;
  }
}

/** A typed value under one localStorage key. */
export function storedValue<T>({ key, parse, fallback, isEmpty, storage = browserStorage }: StoredValueOptions<T>): StoredValue<T> {
  const listeners = new Set<() => void>();
  // Each site keeps its own value (site-scope.ts): the key in storage is this key for the current site.
  const here = () => scopedKey(key);
  // The last text read and its value: reading again gives the same object, as React's store hook needs.
  let cache: { key: string; raw: string | null; value: T } | null = null;
  // A value the browser refused to store: it stands in until a write succeeds or another tab writes.
  let unsaved: { key: string; value: T } | null = null;

  const readRaw = (): string | null => {
    try {
      return storage()?.getItem(here()) ?? null;
    } catch {
      return null;
    }
  };

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const store: StoredValue<T> = {
    key,
    read() {
      if (unsaved?.key === here()) return unsaved.value;
      const raw = readRaw();
      if (cache && cache.key === here() && cache.raw === raw) return cache.value;
      let value = fallback;
      if (raw !== null) {
        try {
          value = parse(JSON.parse(raw)) ?? fallback;
        } catch {
          value = fallback;
        }
      }
      cache = { key: here(), raw, value };
      return value;
    },
    write(value) {
      let saved = false;
      try {
        const target = storage();
        if (target) {
          if (isEmpty?.(value)) target.removeItem(here());
          else {
            const raw = JSON.stringify(value);
            target.setItem(here(), raw);
            // What was just written reads back as this value, without parsing it again (an import adds
            // to the created list once per product).
            cache = { key: here(), raw, value };
          }
          saved = true;
        }
      } catch {
        saved = false;
      }
      unsaved = saved ? null : { key: here(), value };
      notify();
      return saved;
    },
    clear() {
      let cleared = false;
      try {
        const target = storage();
        if (target) {
          target.removeItem(here());
          cleared = true;
        }
      } catch {
        cleared = false;
      }
      unsaved = cleared ? null : { key: here(), value: fallback };
      notify();
      return cleared;
    },
    subscribe(listener) {
      listeners.add(listener);
      const onStorage = (event: StorageEvent) => {
        if (event.key !== null && event.key !== here()) return;
        unsaved = null;
        listener();
      };
      if (typeof window !== 'undefined') window.addEventListener('storage', onStorage);
      return () => {
        listeners.delete(listener);
        if (typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
      };
    },
  };
  return store;
}

/** The stored value, kept current in a component: it re-renders on writes here and in other tabs. */
export function useStoredValue<T>(store: StoredValue<T>): T {
  return useSyncExternalStore(store.subscribe, store.read, store.read);
}
