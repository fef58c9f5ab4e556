/**
 * The browser builds a date format the first time it is asked for one (Intl, with its locale data): on
 * the shared two-core machine of bench/cases.ts, the three a case's header and rows use took some 15 ms,
 * which fell between the answer's arrival and its first screen. Asked for while the page waits for a
 * person to type, they are ready (and cached by format-date) when the first case comes.
 */
import { formatDate, formatExactDate, formatRelative } from '@/lib/format-date';

type Cancel = () => void;

/** Builds the formats when the browser is idle (soon, where it cannot say); answers how to cancel. */
export function warmDateFormatsWhenIdle(): Cancel {
  const warm = () => {
    const now = new Date();
    for (const dateOnly of [false, true]) {
      formatDate(now, { dateOnly });
      formatExactDate(now, { dateOnly });
    }
    formatRelative(now, now.getTime());
  };
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(warm, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const timer = window.setTimeout(warm, 200);
  return () => window.clearTimeout(timer);
}
