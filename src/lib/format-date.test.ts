import { describe, expect, it } from 'vitest';
import { formatDate, formatExactDate, formatRelative, machineDate } from './format-date';

const date = new Date('2025-11-01T00:00:00Z');
// ICU may put a narrow no-break space before "PM"; people see a space.
const plain = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');

describe('formatDate and formatExactDate', () => {
  it.each([
    ['de-DE', 'Europe/Berlin', '01.11.2025, 01:00', 'Samstag, 1. November 2025 um 01:00:00 MEZ'],
    ['en-US', 'America/New_York', 'Oct 31, 2025, 8:00 PM', 'Friday, October 31, 2025 at 8:00:00 PM EDT'],
    ['en-NZ', 'Pacific/Auckland', '1 Nov 2025, 1:00 pm', 'Saturday, 1 November 2025 at 1:00:00 pm NZDT'],
  ])('writes one moment in %s, %s: its own day, time and zone', (locale, timeZone, short, full) => {
    expect(plain(formatDate(date, { locale, timeZone }))).toBe(short);
    expect(plain(formatExactDate(date, { locale, timeZone }))).toBe(full);
  });

  it('shows a calendar date as the same day in every zone', () => {
    const day = new Date('2026-03-01T00:00:00Z');
    for (const timeZone of ['Pacific/Auckland', 'America/Los_Angeles', 'UTC']) {
      expect(formatDate(day, { dateOnly: true, locale: 'en-US', timeZone })).toBe('Mar 1, 2026');
      expect(formatDate(day, { dateOnly: true, locale: 'de-DE', timeZone })).toBe('01.03.2026');
      expect(formatDate(day, { dateOnly: true, locale: 'en-NZ', timeZone })).toBe('1 Mar 2026');
      expect(formatExactDate(day, { dateOnly: true, locale: 'en-GB', timeZone })).toBe('Sunday, 1 March 2026');
    }
  });

  it('gives the machine-readable moment, or the day for a calendar date', () => {
    expect(machineDate(date, true)).toBe('2025-11-01');
    expect(machineDate(date)).toBe('2025-11-01T00:00:00.000Z');
  });
});

describe('formatRelative', () => {
  it('chooses the largest unit, in the given language', () => {
    const now = date.getTime();
    expect(formatRelative(new Date(now - 90 * 86400_000), now, 'en')).toBe('3 months ago');
    expect(formatRelative(new Date(now + 2 * 86400_000), now, 'en')).toBe('in 2 days');
    expect(formatRelative(new Date(now - 86400_000), now, 'en')).toBe('yesterday');
    expect(formatRelative(new Date(now - 3 * 3600_000), now, 'en')).toBe('3 hours ago');
    expect(formatRelative(new Date(now), now, 'en')).toBe('now');
    expect(formatRelative(new Date(now - 400 * 86400_000), now, 'en')).toBe('last year');
    expect(formatRelative(new Date(now - 90 * 86400_000), now, 'de')).toBe('vor 3 Monaten');
  });
});
