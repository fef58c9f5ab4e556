import { describe, expect, it } from 'vitest';
import { classifyAnswer, jsonWithoutKey, REDACTED } from './platform-answer';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

describe('the key in a platform answer', () => {
  it('serves an answer whose escapes cannot spell the key as the platform wrote it', () => {
    const body = Buffer.from('{"message":"line one\\nline two\\t","n":12345678901234567890}');
    const answer = classifyAnswer(200, JSON_TYPE, body, 'sk_live_123');
    expect(answer.kind).toBe('json');
    if (answer.kind === 'json') {
      expect(answer.body).toBe(body.toString('utf8'));
      expect(answer.bytes).toBe(body.length);
    }
  });

  it('counts the bytes of what it serves: multi-byte text, a cut-out key, bytes that are not UTF-8', () => {
    const cases = [
      Buffer.from('{"city":"Zürich","note":"🧵 linen"}'),
      Buffer.from('{"echo":"Schlüssel sk_live_123 ✓"}'),
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]),
    ];
    for (const body of cases) {
      const answer = classifyAnswer(200, JSON_TYPE, body, 'sk_live_123');
      expect(answer.kind).toBe('json');
      if (answer.kind !== 'json') continue;
      expect(answer.body).not.toContain('sk_live_123');
      expect(answer.bytes).toBe(Buffer.byteLength(answer.body));
    }
  });

  it('still finds the key spelled with \\u escapes, or with \\/ for a slash in it', () => {
    const escaped = '{"echo":"sk\\u005flive\\u005f123"}';
    expect(jsonWithoutKey(escaped, JSON.parse(escaped), 'sk_live_123')).not.toContain('live');
    const slashed = '{"echo":"key\\/with\\/slash"}';
    const out = jsonWithoutKey(slashed, JSON.parse(slashed), 'key/with/slash');
    expect(JSON.parse(out)).toEqual({ echo: REDACTED });
  });
});
