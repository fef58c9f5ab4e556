import { describe, expect, it } from 'vitest';
import { caseIdOf, parseListAnswer, receivedAtMs } from './case-list-items';

describe('a case of a list', () => {
  it('keeps an id beyond 2^53 digit for digit, and parses the rest as JSON does', () => {
    expect(parseListAnswer('{"results":[{"id":12345678901234567890,"n":1.5},{"id":"7"}]}')).toEqual({
      results: [{ id: '12345678901234567890', n: 1.5 }, { id: '7' }],
    });
    expect(parseListAnswer('[{"id":42,"text":"1234567890123456789 in words"}]')).toEqual([
      { id: 42, text: '1234567890123456789 in words' },
    ]);
    expect(() => parseListAnswer('{"results": [')).toThrow();
  });

  it('reads its id as text, or none', () => {
    expect(caseIdOf({ id: '48217' })).toBe('48217');
    expect(caseIdOf({ id: 48217 })).toBe('48217');
    expect(caseIdOf({ id: '' })).toBeNull();
    expect(caseIdOf({ id: 1.5 })).toBeNull();
    expect(caseIdOf({ id: 'x'.repeat(65) })).toBeNull();
    expect(caseIdOf({})).toBeNull();
    expect(caseIdOf('48217')).toBeNull();
  });

  it('reads when it was received: epoch seconds (also as digits), milliseconds or an ISO date', () => {
    expect(receivedAtMs({ created_at: 1761955200 })).toBe(1761955200000);
    expect(receivedAtMs({ created_at: '1761955200' })).toBe(1761955200000);
    expect(receivedAtMs({ created_at: 1761955200123 })).toBe(1761955200123);
    expect(receivedAtMs({ created_at: '2025-11-01T00:00:00Z' })).toBe(1761955200000);
    expect(receivedAtMs({ created_at: 'yesterday' })).toBeNull();
    expect(receivedAtMs({ created_at: -5 })).toBeNull();
    expect(receivedAtMs({})).toBeNull();
  });
});
