import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import { DATE_REASONS, describeInstant, epochToLocalDateTime, parseDateText, withPickedDay } from './dates';

// Date reads process.env.TZ when it changes; each test file runs in its own process.
function inTimeZone(zone: string, body: () => void) {
  describe(`in ${zone}`, () => {
    let saved: string | undefined;
    beforeAll(() => {
      saved = process.env.TZ;
      process.env.TZ = zone;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    });
    body();
  });
}

const epochOf = (text: string, locale?: string) => {
  const parsed = parseDateText(text, locale);
  return parsed.ok ? parsed.epoch : parsed.reason;
};

inTimeZone('UTC', () => {
  it('reads a date and time in ISO order, with or without seconds, with a space or a T', () => {
    expect(epochOf('2026-01-01 00:00:00')).toBe(1767225600);
    expect(epochOf('2026-01-01 00:00')).toBe(1767225600);
    expect(epochOf('2026-01-01T00:00')).toBe(1767225600);
    expect(epochOf(' 2026-01-01 13:30 ')).toBe(1767225600 + 13.5 * 3600);
    expect(epochOf('1970-01-01 00:00:00')).toBe(0);
    expect(epochOf('9999-12-31 23:59:59')).toBe(MAX_EPOCH_SECONDS);
  });

  it('reads a date alone as the start of that day, and says it was a date alone', () => {
    expect(parseDateText('2026-03-01')).toEqual({ ok: true, epoch: 1772323200, dateOnly: true });
    expect(parseDateText('2026-3-1')).toEqual({ ok: true, epoch: 1772323200, dateOnly: true });
    expect(parseDateText('2026-03-01 00:00')).toEqual({ ok: true, epoch: 1772323200, dateOnly: false });
  });

  it('blank is no date (left out of the body), not an error', () => {
    expect(parseDateText('')).toEqual({ ok: true, epoch: null });
    expect(parseDateText('   ')).toEqual({ ok: true, epoch: null });
  });

  it.each([
    ['de-DE', '01.03.2026', 1772323200],
    ['de-DE', '1.3.2026 14:30', 1772323200 + 14.5 * 3600],
    ['en-GB', '01/03/2026', 1772323200],
    ['fr-FR', '01/03/2026 08:00', 1772323200 + 8 * 3600],
    ['en-US', '3/1/2026', 1772323200],
    ['en-US', '3/1/2026, 2:30 PM', 1772323200 + 14.5 * 3600],
    ['en-US', '3/1/2026 12:05 am', 1772323200 + 300],
    // A four-digit first number is a year in any locale.
    ['en-US', '2026/03/01', 1772323200],
  ])('in %s reads %j in the locale’s own order', (locale, text, epoch) => {
    expect(epochOf(text, locale)).toBe(epoch);
  });

  it.each([
    ['2026-03', DATE_REASONS.unreadable],
    ['2026', DATE_REASONS.unreadable],
    ['tomorrow', DATE_REASONS.unreadable],
    ['202600-03-01', DATE_REASONS.yearDigits],
    ['26-03-01', DATE_REASONS.yearDigits],
    ['01.03.26', DATE_REASONS.yearDigits],
    ['2026-02-30', DATE_REASONS.notReal],
    ['2026-13-01 10:00', DATE_REASONS.notReal],
    ['2026-00-10', DATE_REASONS.notReal],
    ['2026-01-01 24:00', DATE_REASONS.notRealTime],
    ['2026-01-01 10:60', DATE_REASONS.notRealTime],
    ['2026-01-01 10:00:60', DATE_REASONS.notRealTime],
    ['2026-01-01 13:00 pm', DATE_REASONS.notRealTime],
    ['2026-01-01 10', DATE_REASONS.unreadable],
    ['2026-01-01 10:0', DATE_REASONS.unreadable],
    ['1969-12-31 23:59:59', DATE_REASONS.beforeEpoch],
  ])('%j is an error, never an empty date: %s', (text, reason) => {
    expect(parseDateText(text, 'en-US')).toEqual({ ok: false, reason });
  });

  it('writes epoch seconds as the field shows them, and refuses what is not a whole number', () => {
    expect(epochToLocalDateTime(1767225600)).toBe('2026-01-01 00:00:00');
    expect(epochToLocalDateTime(MAX_EPOCH_SECONDS)).toBe('9999-12-31 23:59:59');
    expect(() => epochToLocalDateTime(1.5)).toThrow(RangeError);
    expect(() => epochToLocalDateTime(Number.NaN)).toThrow(RangeError);
  });

  it('round trip: what the field shows reads back as the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_EPOCH_SECONDS }), (epoch) => {
        expect(epochOf(epochToLocalDateTime(epoch))).toBe(epoch);
      }),
      { numRuns: 300 },
    );
  });

  it('a picked day keeps the time already typed', () => {
    expect(withPickedDay('', '2026-03-01')).toBe('2026-03-01');
    expect(withPickedDay('2025-01-01 14:30', '2026-03-01')).toBe('2026-03-01 14:30');
    expect(withPickedDay('1/1/2025, 2:30 PM', '2026-03-01')).toBe('2026-03-01 2:30 PM');
    expect(withPickedDay('garbage', '2026-03-01')).toBe('2026-03-01');
  });
});

inTimeZone('Europe/Berlin', () => {
  it('reads local time (CET is UTC+1 in winter) and describes the instant in local time and UTC', () => {
    const epoch = epochOf('01.03.2026', 'de-DE');
    expect(epoch).toBe(1772323200 - 3600);
    const { local, utc } = describeInstant(1772323200 - 3600, 'de-DE');
    expect(local).toContain('1. März 2026');
    expect(local).toContain('00:00:00');
    expect(local).toContain('(Europe/Berlin)');
    expect(utc).toBe('2026-02-28 23:00:00 UTC');
  });
});

inTimeZone('Pacific/Auckland', () => {
  it('uses the local time zone (NZDT is UTC+13 in January)', () => {
    expect(epochOf('2026-01-01 13:00:00')).toBe(1767225600);
    expect(epochToLocalDateTime(1767225600)).toBe('2026-01-01 13:00:00');
  });

  it('moves a wall time skipped by daylight saving to after the change', () => {
    // 2026-09-27: clocks go from 02:00 NZST to 03:00 NZDT.
    const epoch = epochOf('2026-09-27 02:30:00');
    expect(typeof epoch).toBe('number');
    expect(epochToLocalDateTime(Number(epoch))).toBe('2026-09-27 03:30:00');
  });

  it('round trip: epoch → local → epoch (in the repeated autumn hour, the earlier instant)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_EPOCH_SECONDS - 2 * 86400 }), (epoch) => {
        const local = epochToLocalDateTime(epoch);
        const back = Number(epochOf(local));
        // In the hour clocks go back, one local time names two instants; Date picks the earlier.
        expect(back === epoch || back === epoch - 3600).toBe(true);
        expect(epochToLocalDateTime(back)).toBe(local);
      }),
      { numRuns: 300 },
    );
  });
});
