/**
 * "Something in the product changed": the autosave's trigger. A signal without values, so a keystroke
 * costs no copy of a 500-option form; the draft reads the values once, when it is written.
 */
import { createContext, useContext, useEffect, useRef } from 'react';

export const ChangeSignalContext = createContext<() => void>(() => {});

export const useMarkChanged = () => useContext(ChangeSignalContext);

/** Adding, removing, duplicating or moving rows changes the product without an input event. */
export function useMarkChangedOn(fields: unknown) {
  const markChanged = useMarkChanged();
  const mounted = useRef(false);
  useEffect(() => {
    if (mounted.current) markChanged();
    mounted.current = true;
  }, [fields, markChanged]);
}
