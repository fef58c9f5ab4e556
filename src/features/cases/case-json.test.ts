import { describe, expect, it } from 'vitest';
import { caseFileName, caseJson } from './case-json';

describe('case JSON', () => {
  it('names the file after the form and the case', () => {
    expect(caseFileName('3', '48217')).toBe('form-3-case-48217.json');
    expect(caseFileName('a/b', '..')).toBe('form-a_b-case-__.json');
    expect(caseFileName('', '1')).toBe('form-_-case-1.json');
  });

  it('indents the platform’s text and changes nothing else: key order, digits, escapes', () => {
    expect(caseJson('{"b":1,"a":{"c":[]}}')).toBe('{\n  "b": 1,\n  "a": {\n    "c": []\n  }\n}');
    expect(caseJson('{"10":12345678901234567890,"2":"caf\\u00e9"}')).toBe('{\n  "10": 12345678901234567890,\n  "2": "caf\\u00e9"\n}');
    expect(caseJson('{}')).toBe('{}');
  });
});
