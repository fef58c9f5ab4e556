import { describe, expect, it } from 'vitest';
import { formatDate, formatExactDate, formatRelative, machineDate } from './format-date';

const date = new Date('2025-11-01T00:00:00Z');

describe('dates', () => {
  it('formats through Intl in the given locale and zone', () => {
    expect(formatDate(date, { locale: 'en-NZ', timeZone: 'Pacific/Auckland' })).toBe(
      new Intl.DateTimeFormat('en-NZ', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Pacific/Auckland' }).format(date),
    );
    expect(formatExactDate(date, { locale: 'en-GB', timeZone: 'UTC' })).toContain('1 November 2025');
  });

  it('shows a calendar date as the same day in every zone', () => {
    expect(formatDate(date, { dateOnly: true, locale: 'en-US' })).toBe('Nov 1, 2025');
    expect(machineDate(date, true)).toBe('2025-11-01');
    expect(machineDate(date)).toBe('2025-11-01T00:00:00.000Z');
  });

  it('chooses the largest unit for relative times', () => {
    const now = date.getTime();
    expect(formatRelative(new Date(now - 90 * 86400_000), now, 'en')).toBe('3 months ago');
    expect(formatRelative(new Date(now + 2 * 86400_000), now, 'en')).toBe('in 2 days');
    expect(formatRelative(new Date(now - 86400_000), now, 'en')).toBe('yesterday');
    expect(formatRelative(new Date(now - 3 * 3600_000), now, 'en')).toBe('3 hours ago');
    expect(formatRelative(new Date(now), now, 'en')).toBe('now');
    expect(formatRelative(new Date(now - 400 * 86400_000), now, 'en')).toBe('last year');
  });
});
