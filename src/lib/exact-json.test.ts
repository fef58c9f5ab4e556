import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExactJson, reindentJson, stringifyExactJson } from './exact-json';
import { isExactNumber } from './exact-number';

describe('parseExactJson', () => {
  it('keeps numbers a JavaScript number would change, as written', () => {
    const value = parseExactJson('{"big":12345678901234567890,"one":1.0,"exp":1e3,"neg":-0,"tiny":1e-400}') as Record<string, unknown>;
    for (const [key, text] of [
      ['big', '12345678901234567890'],
      ['one', '1.0'],
      ['exp', '1e3'],
      ['neg', '-0'],
      ['tiny', '1e-400'],
    ]) {
      expect(isExactNumber(value[key as string])).toBe(true);
      expect(String(value[key as string])).toBe(text);
    }
  });

  it('reads every other value as JSON.parse does', () => {
    const text = '{"id":"48217","created_at":1761955200,"ratio":0.5,"max":9007199254740991,"ok":true,"none":null,"list":[1,"a",{"b":[]}]}';
    expect(parseExactJson(text)).toEqual(JSON.parse(text));
  });

  it('keeps the last of a repeated key, like JSON.parse, and a "__proto__" key as a plain key', () => {
    expect(parseExactJson('{"a":1,"a":2}')).toEqual({ a: 2 });
    const value = parseExactJson('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each(['', '{', '{"a":}', '<html>', '{"a":1} x', 'NaN'])('refuses %j with a SyntaxError', (text) => {
    expect(() => parseExactJson(text)).toThrow(SyntaxError);
  });
});

describe('stringifyExactJson', () => {
  it('writes exact numbers as they were read', () => {
    const value = parseExactJson('{"order_id":12345678901234567890,"items":[1.50,2]}');
    expect(stringifyExactJson(value)).toBe('{\n  "order_id": 12345678901234567890,\n  "items": [\n    1.50,\n    2\n  ]\n}');
    expect(stringifyExactJson('text')).toBe('"text"');
  });
});

describe('reindentJson', () => {
  it('indents like JSON.stringify', () => {
    expect(reindentJson('{"b":1,"a":{"c":[]},"d":[1,{}],"e":"x"}')).toBe(
      JSON.stringify({ b: 1, a: { c: [] }, d: [1, {}], e: 'x' }, null, 2),
    );
    expect(reindentJson(' { } ')).toBe('{}');
    expect(reindentJson('[ ]')).toBe('[]');
  });

  it('changes nothing but whitespace: digits, escapes, key order and repeated keys stay', () => {
    const text = '{"10":1,"2":12345678901234567890,"s":"caf\\u00e9 \\"q\\" \\\\ a\\/b , : { [","a":1,"a":2,"f":1.0e+2}';
    const out = reindentJson(text);
    expect(out).toBe(
      '{\n  "10": 1,\n  "2": 12345678901234567890,\n  "s": "caf\\u00e9 \\"q\\" \\\\ a\\/b , : { [",\n  "a": 1,\n  "a": 2,\n  "f": 1.0e+2\n}',
    );
  });

  it('gives JSON.stringify’s indentation for any JSON, and is idempotent', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const compact = JSON.stringify(value);
        const indented = JSON.stringify(value, null, 2);
        expect(reindentJson(compact)).toBe(indented);
        expect(reindentJson(indented)).toBe(indented);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('removes only the whitespace between tokens', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const spaced = JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n ');
        expect(reindentJson(spaced, 4)).toBe(JSON.stringify(value, null, 4));
      }),
      { seed: 20261123, numRuns: 200 },
    );
  });
});
