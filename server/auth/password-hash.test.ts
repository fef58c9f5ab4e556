/**
 * Storing and checking passwords with the real Argon2id (each hash takes a few tens of milliseconds), each
 * test named after the OWASP ASVS 5.0 requirement it shows met.
 */
import { hash } from '@node-rs/argon2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ARGON2_PARAMETERS, hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './password-hash';

const PASSWORD = 'tulip kettle harbour lantern';

describe('hashing', () => {
  it("V11.4.2: passwords are stored as Argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane) and a fresh salt", async () => {
    const first = await hashPassword(PASSWORD);
    const second = await hashPassword(PASSWORD);
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(second).not.toBe(first);
    expect(needsRehash(first)).toBe(false);
  });

  it('V11.4.2: the right password verifies, a wrong one does not', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
    expect(await verifyPassword(stored, 'tulip kettle harbour lanterns')).toBe(false);
    expect(await verifyPassword(stored, '')).toBe(false);
  });

  it('V6.2.8: the password is verified as received: no case change, no trimming, no truncation', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(stored, 'Tulip kettle harbour lantern')).toBe(false);
    expect(await verifyPassword(stored, ` ${PASSWORD}`)).toBe(false);
    expect(await verifyPassword(stored, `${PASSWORD} `)).toBe(false);

    const long = 'x'.repeat(255) + 'a';
    const storedLong = await hashPassword(long);
    expect(await verifyPassword(storedLong, 'x'.repeat(255) + 'b')).toBe(false);
    expect(await verifyPassword(storedLong, `${long}a`)).toBe(false);
    expect(await verifyPassword(storedLong, long)).toBe(true);
  });

  it('V6.2.5: Unicode passwords verify however the same characters were encoded (NFKC, NIST SP 800-63B-4 §3.1.1.2)', async () => {
    const composed = 'caf\u00e9 au lait 🦊 noir';
    const stored = await hashPassword(composed);
    expect(await verifyPassword(stored, 'cafe\u0301 au lait 🦊 noir')).toBe(true);
    expect(await verifyPassword(stored, 'cafe au lait 🦊 noir')).toBe(false);
    // Full-width letters, as some input methods type them, are the ordinary letters.
    expect(await verifyPassword(await hashPassword('ｔｕｌｉｐ kettle'), 'tulip kettle')).toBe(true);
  });

  it('V11.4.2: a stored value that is not an Argon2 hash is an error, never a match, and the error does not name the password', async () => {
    const failure = await verifyPassword('not a hash', PASSWORD).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure)).not.toContain(PASSWORD);
  });
});

describe('rehash when the parameters change', () => {
  it('V11.4.2: a hash made with other parameters, another Argon2 variant or another scheme needs rehashing', async () => {
    const cheaper = await hash(PASSWORD, { ...ARGON2_PARAMETERS, timeCost: 1 });
    const smaller = await hash(PASSWORD, { ...ARGON2_PARAMETERS, memoryCost: 12288, timeCost: 3 });
    const argon2i = await hash(PASSWORD, { ...ARGON2_PARAMETERS, algorithm: 1 });
    for (const stored of [cheaper, smaller, argon2i]) {
      expect(needsRehash(stored)).toBe(true);
      // Still verifies, so the sign-in can store the new hash once the password is known to be right.
      expect(await verifyPassword(stored, PASSWORD)).toBe(true);
    }
    expect(needsRehash('$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW')).toBe(true);
    expect(needsRehash(await hashPassword(PASSWORD))).toBe(false);
  });
});

describe('unknown accounts', () => {
  it('V6.3.8: signing in as nobody runs a real Argon2 verification and fails, whatever the password', async () => {
    expect(await verifyAgainstDummy(PASSWORD)).toBe(false);
    expect(await verifyAgainstDummy('')).toBe(false);
    expect(await verifyAgainstDummy('x'.repeat(300))).toBe(false);
  });
});

describe('the plain password stays inside', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('V16.2.5: hashing and verifying write nothing to the logs, and the stored value does not contain the password', async () => {
    const written: string[] = [];
    const record = (...parts: unknown[]) => written.push(parts.map(String).join(' '));
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(record);
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => record(chunk) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => record(chunk) > 0);

    const stored = await hashPassword(PASSWORD);
    await verifyPassword(stored, PASSWORD);
    await verifyPassword(stored, 'a wrong password here');
    await verifyAgainstDummy(PASSWORD);
    needsRehash(stored);
    vi.restoreAllMocks();

    expect(written).toEqual([]);
    const encodings = [PASSWORD, Buffer.from(PASSWORD).toString('base64').replace(/=+$/, ''), Buffer.from(PASSWORD).toString('hex')];
    for (const encoded of encodings) expect(stored).not.toContain(encoded);
  });
});
