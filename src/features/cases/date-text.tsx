import { useId, useState } from 'react';
import { DateTime } from '@/lib/date-time';
import { formatExactDate, formatRelative, machineDate } from '@/lib/format-date';
import classes from './cases.module.css';

interface DateProps {
  date: Date;
  dateOnly?: boolean;
}

/** The moment the page was shown: relative times are relative to it, and stay put while reading. */
function useNow(): number {
  const [now] = useState(() => Date.now());
  return now;
}

/** A date in a table: the exact date in the viewer's locale, then how long ago. */
export function DateValue({ date, dateOnly = false }: DateProps) {
  const now = useNow();
  return (
    <span>
      <DateTime date={date} dateOnly={dateOnly} /> <span className={classes.muted}>({formatRelative(date, now)})</span>
    </span>
  );
}

/**
 * "3 months ago", with the exact date and time (and zone) on hover or keyboard focus. A CSS tooltip
 * rather than a positioning library: the first page stays light. Put it in a line with the `tipAnchor`
 * class: the tooltip hangs from that line's start.
 */
export function RelativeTime({ date, dateOnly = false }: DateProps) {
  const now = useNow();
  const exact = formatExactDate(date, { dateOnly });
  const id = useId();
  return (
    <span className={classes.tip}>
      {/* Focusable, so that keyboard users can show the exact time too. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the tooltip must be reachable without a mouse */}
      <time dateTime={machineDate(date, dateOnly)} tabIndex={0} className={classes.time} aria-describedby={id}>
        {formatRelative(date, now)}
      </time>
      <span role="tooltip" id={id} className={classes.tipLabel}>
        {exact}
      </span>
    </span>
  );
}
