/**
 * The editor's dates are local date-times "YYYY-MM-DD HH:mm:ss" (the date picker's format, in the
 * browser's time zone); the wire carries Unix epoch seconds (platform-notes).
 */

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * Epoch seconds of a local date-time; null for "" and for text that is not a real date-time
 * ("2026-02-30 10:00:00", "24:00:00"). A wall time skipped by a daylight-saving change (02:30 on the
 * morning clocks go forward) becomes the moment the clocks show after the change, as Date does.
 */
export function localDateTimeToEpoch(value: string): number | null {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  // setFullYear, not the constructor: the constructor reads years 0 to 99 as 1900 to 1999.
  const date = new Date(2000, 0, 1);
  date.setFullYear(year, month - 1, day);
  date.setHours(hours, minutes, seconds, 0);
  // Date rolls 30 February over into March; a date that rolled over was not a date.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return Math.floor(date.getTime() / 1000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The local date-time of an epoch second, e.g. 1767225600 → "2026-01-01 00:00:00" in UTC. */
export function epochToLocalDateTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  if (!Number.isSafeInteger(seconds) || Number.isNaN(date.getTime())) {
    throw new RangeError(`${seconds} is not a date as epoch seconds`);
  }
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}
