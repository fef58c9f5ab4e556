/**
 * The page renders the import at most once per this many ms while it changes in a burst. Sending 16 at a
 * time changes it about five times per product (its turn, "sending", the answer, the queue's count
 * twice), a few hundred times a second, and a store read by useSyncExternalStore renders the whole page
 * at once on each: measured, those renders took most of the main thread and held the answers back.
 */
const RENDER_EVERY_MS = 100;

/**
 * A subscription that tells React of a change at once when the page is quiet (a click, a fix, a single
 * answer render as before), and of a burst of changes once per RENDER_EVERY_MS, the last one always told.
 */
export function throttled(
  subscribe: (listener: () => void) => () => void,
  everyMs = RENDER_EVERY_MS,
  now: () => number = () => performance.now(),
) {
  return (listener: () => void) => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = Number.NEGATIVE_INFINITY;
    const tell = () => {
      timer = null;
      last = now();
      listener();
    };
    const unsubscribe = subscribe(() => {
      if (timer !== null) return;
      const wait = last + everyMs - now();
      if (wait <= 0) tell();
      else timer = setTimeout(tell, wait);
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
  };
}
