import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import { epochToLocalDateTime, localDateTimeToEpoch } from './dates';

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

inTimeZone('UTC', () => {
  it('reads a local date-time as epoch seconds', () => {
    expect(localDateTimeToEpoch('2026-01-01 00:00:00')).toBe(1767225600);
    expect(localDateTimeToEpoch('1970-01-01 00:00:00')).toBe(0);
    expect(localDateTimeToEpoch('9999-12-31 23:59:59')).toBe(MAX_EPOCH_SECONDS);
  });

  it('writes epoch seconds as a local date-time', () => {
    expect(epochToLocalDateTime(1767225600)).toBe('2026-01-01 00:00:00');
    expect(epochToLocalDateTime(0)).toBe('1970-01-01 00:00:00');
    expect(epochToLocalDateTime(MAX_EPOCH_SECONDS)).toBe('9999-12-31 23:59:59');
  });

  it('reads years below 100 as themselves, not as 19xx', () => {
    expect(epochToLocalDateTime(localDateTimeToEpoch('0050-06-01 12:00:00') ?? Number.NaN)).toBe('0050-06-01 12:00:00');
  });

  it.each([
    '',
    '2026-01-01',
    '2026-01-01T00:00:00',
    '2026-1-1 00:00:00',
    '2026-02-30 10:00:00',
    '2026-13-01 10:00:00',
    '2026-00-10 10:00:00',
    '2026-01-01 24:00:00',
    '2026-01-01 10:60:00',
    '2026-01-01 10:00:60',
    ' 2026-01-01 10:00:00',
  ])('%j is not a date-time → null', (value) => {
    expect(localDateTimeToEpoch(value)).toBeNull();
  });

  it('refuses an epoch that is not a whole number', () => {
    expect(() => epochToLocalDateTime(1.5)).toThrow(RangeError);
    expect(() => epochToLocalDateTime(Number.NaN)).toThrow(RangeError);
  });
});

inTimeZone('Pacific/Auckland', () => {
  it('uses the local time zone (NZDT is UTC+13 in January)', () => {
    expect(localDateTimeToEpoch('2026-01-01 13:00:00')).toBe(1767225600);
    expect(epochToLocalDateTime(1767225600)).toBe('2026-01-01 13:00:00');
  });

  it('moves a wall time skipped by daylight saving to after the change', () => {
    // 2026-09-27: clocks go from 02:00 NZST to 03:00 NZDT.
    const epoch = localDateTimeToEpoch('2026-09-27 02:30:00');
    expect(epoch).not.toBeNull();
    expect(epochToLocalDateTime(epoch ?? 0)).toBe('2026-09-27 03:30:00');
  });

  it('round trip: epoch → local → epoch (in the repeated autumn hour, the earlier instant)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_EPOCH_SECONDS - 2 * 86400 }), (epoch) => {
        const local = epochToLocalDateTime(epoch);
        const back = localDateTimeToEpoch(local);
        // In the hour clocks go back, one local time names two instants; Date picks the earlier.
        expect(back === epoch || back === epoch - 3600).toBe(true);
        expect(epochToLocalDateTime(back ?? 0)).toBe(local);
      }),
      { numRuns: 300 },
    );
  });
});

inTimeZone('UTC', () => {
  it('round trip: local → epoch → local for every real date-time', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(0), max: new Date(MAX_EPOCH_SECONDS * 1000), noInvalidDate: true }), (date) => {
        const local = epochToLocalDateTime(Math.floor(date.getTime() / 1000));
        expect(epochToLocalDateTime(localDateTimeToEpoch(local) ?? Number.NaN)).toBe(local);
      }),
      { numRuns: 300 },
    );
  });
});
