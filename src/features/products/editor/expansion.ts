/**
 * Which attributes and options are expanded. A tiny external store keyed by item key, so expanding one
 * row re-renders that row only, not the other 499.
 */
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';

export interface ExpansionStore {
  isOpen(key: string): boolean;
  set(key: string, open: boolean): void;
  toggle(key: string): void;
  openMany(keys: Iterable<string>): void;
  subscribe(listener: () => void): () => void;
}

export function createExpansionStore(initial: Iterable<string> = []): ExpansionStore {
  const open = new Set(initial);
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());
  return {
    isOpen: (key) => open.has(key),
    set(key, value) {
      if (open.has(key) === value) return;
      if (value) open.add(key);
      else open.delete(key);
      emit();
    },
    toggle(key) {
      this.set(key, !open.has(key));
    },
    openMany(keys) {
      let changed = false;
      for (const key of keys) {
        if (!open.has(key)) {
          open.add(key);
          changed = true;
        }
      }
      if (changed) emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const ExpansionContext = createContext<ExpansionStore>(createExpansionStore());

export function useExpanded(key: string): [boolean, () => void] {
  const store = useContext(ExpansionContext);
  const open = useSyncExternalStore(
    store.subscribe,
    () => store.isOpen(key),
    () => store.isOpen(key),
  );
  const toggle = useCallback(() => store.toggle(key), [store, key]);
  return [open, toggle];
}
