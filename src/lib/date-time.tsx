import { formatDate, formatExactDate, machineDate, type DateOptions } from './format-date';

/**
 * A date as people read it, in a `<time>` element: the short exact form (`formatDate`), the full form with
 * the time zone on hover (`formatExactDate`), and the machine-readable moment for assistive technology.
 */
export function DateTime({ date, dateOnly = false, locale, timeZone }: { date: Date } & DateOptions) {
  return (
    <time dateTime={machineDate(date, dateOnly)} title={formatExactDate(date, { dateOnly, locale, timeZone })}>
      {formatDate(date, { dateOnly, locale, timeZone })}
    </time>
  );
}
