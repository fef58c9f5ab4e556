/** Recent lookups in a component: every reader (and other tabs) sees the same list. */
import { useCallback } from 'react';
import { useStoredValue } from '@/lib/storage';
import { addRecentLookup, recentLookupsStore, type RecentLookup } from './recent-lookups';

export function useRecentLookups() {
  const list = useStoredValue(recentLookupsStore);
  const remember = useCallback((lookup: Omit<RecentLookup, 'at'>) => {
    recentLookupsStore.write(addRecentLookup(recentLookupsStore.read(), { ...lookup, at: Date.now() }));
  }, []);
  const clear = useCallback(() => void recentLookupsStore.clear(), []);
  return { list, remember, clear };
}
