/**
 * A module loaded when first wanted rather than with the page: `lazyModule(() => import('./x'))`, then
 * `useLazyModule(x, wanted)` in a component. Unlike `React.lazy`, the caller sees the loading and the
 * failure as values, so a page can keep its own loading state, say what failed and offer to try again
 * (a rejected `React.lazy` stays rejected); and the module stays loaded for every later render, so a page
 * mounted afresh shows it at once.
 */
import { useCallback, useEffect, useSyncExternalStore } from 'react';

export interface LazyModuleState<M> {
  /** The module once loaded, else null. */
  module: M | null;
  loading: boolean;
  /** Why the last attempt failed; kept while another attempt is under way, null once loaded. */
  error: unknown;
}

export interface LazyModule<M> {
  /** Starts loading unless it is loading or loaded; after a failure, starts again. */
  load(): void;
  state(): LazyModuleState<M>;
  subscribe(onChange: () => void): () => void;
}

export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let state: LazyModuleState<M> = { module: null, loading: false, error: null };
  const listeners = new Set<() => void>();
  const set = (next: LazyModuleState<M>) => {
    state = next;
    for (const listener of listeners) listener();
  };
  return {
    load() {
      if (state.loading || state.module !== null) return;
      set({ ...state, loading: true });
      importer().then(
        (module) => set({ module, loading: false, error: null }),
        (error: unknown) => set({ module: null, loading: false, error }),
      );
    },
    state: () => state,
    subscribe(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

/**
 * The module's state, and `load` to start it early or try again. `wanted` loads it when it becomes true
 * (on mount too), and so tries again after a failure.
 */
export function useLazyModule<M>(lazy: LazyModule<M>, wanted = false): LazyModuleState<M> & { load: () => void } {
  const state = useSyncExternalStore(lazy.subscribe, lazy.state, lazy.state);
  useEffect(() => {
    if (wanted) lazy.load();
  }, [lazy, wanted]);
  const load = useCallback(() => lazy.load(), [lazy]);
  return { ...state, load };
}
