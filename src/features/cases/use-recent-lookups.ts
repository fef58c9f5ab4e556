/**
 * Recent lookups as a small external store over localStorage, so every reader of it (and other tabs,
 * through the `storage` event) sees the same list.
 */
import { useCallback, useSyncExternalStore } from 'react';
import {
  addRecentLookup,
  parseRecentLookups,
  readRawRecentLookups,
  RECENT_LOOKUPS_KEY,
  writeRecentLookups,
  type RecentLookup,
} from './recent-lookups';

const listeners = new Set<() => void>();
let snapshot: { raw: string | null; list: RecentLookup[] } = { raw: null, list: [] };

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    // Some browsers throw on access when storage is disabled.
    return null;
  }
}

function getSnapshot(): RecentLookup[] {
  const raw = readRawRecentLookups(storage());
  if (raw !== snapshot.raw) snapshot = { raw, list: parseRecentLookups(raw) };
  return snapshot.list;
}

const EMPTY: RecentLookup[] = [];
const getServerSnapshot = () => EMPTY;

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === RECENT_LOOKUPS_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function write(list: RecentLookup[]) {
  // Where the browser refuses storage, the list still lasts while the page is open.
  if (!writeRecentLookups(storage(), list)) snapshot = { raw: snapshot.raw, list };
  for (const listener of listeners) listener();
}

export function useRecentLookups() {
  const list = useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);
  const remember = useCallback((lookup: Omit<RecentLookup, 'at'>) => {
    write(addRecentLookup(getSnapshot(), { ...lookup, at: Date.now() }));
  }, []);
  const clear = useCallback(() => write([]), []);
  return { list, remember, clear };
}
