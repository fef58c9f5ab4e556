/**
 * What the reader did to a case's view (the filter typed, "Show all" of a long value, an object's fields
 * opened), kept beside the case rather than in the component that shows it: the table renders only the
 * rows near the screen, so a row scrolled out and back in is mounted afresh, as is the Fields tab after
 * Raw JSON; both must come back as the reader left them.
 */
import { createContext, useContext, useState, type ReactNode } from 'react';

const Remembered = createContext<Map<string, unknown> | null>(null);

/** One store per case: what is set inside stays while the case is on screen. */
export function RememberedStateProvider({ children }: { children: ReactNode }) {
  const [states] = useState(() => new Map<string, unknown>());
  return <Remembered value={states}>{children}</Remembered>;
}

/**
 * Like useState, starting from what was last set under `key`, else `initial`. Without a key or a
 * provider it is plain component state.
 */
export function useRememberedState<T>(key: string | undefined, initial: T): [value: T, set: (next: T) => void] {
  const states = useContext(Remembered);
  const [value, setValue] = useState<T>(() => (key !== undefined && states?.has(key) ? (states.get(key) as T) : initial));
  const set = (next: T) => {
    if (key !== undefined) states?.set(key, next);
    setValue(next);
  };
  return [value, set];
}
