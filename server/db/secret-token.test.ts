import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isSecretToken, newSecretToken, secretTokenHash } from './secret-token';

describe('secret tokens', () => {
  it('are 43 base64url characters, new each time, and shaped as the cookies and links are checked', () => {
    const tokens = new Set(Array.from({ length: 100 }, newSecretToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(isSecretToken(token)).toBe(true);
    for (const other of [undefined, '', 'a'.repeat(42), 'a'.repeat(44), `${'a'.repeat(42)}=`, `${'a'.repeat(42)}/`]) {
      expect(isSecretToken(other)).toBe(false);
    }
  });
  it('are kept as their SHA-256, never as themselves', () => {
    const token = newSecretToken();
    expect(secretTokenHash(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(secretTokenHash(token)).not.toContain(token);
  });
});
