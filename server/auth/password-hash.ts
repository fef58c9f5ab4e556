/**
 * Storing and checking passwords: Argon2id through @node-rs/argon2 (a Rust implementation with its own
 * prebuilt binary; hashing runs off the event loop). The stored value is the PHC string
 * (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`), which carries its own salt and parameters, so the parameters can
 * be raised later and old hashes replaced at the next sign-in (`needsRehash`).
 *
 * Knows nothing of people, databases or HTTP; the sign-in calls it.
 */
import { hash, parseOptions, verify, type Algorithm, type Options, type Version } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import { normalizePassword } from './password-text';

// The package declares these as `const enum`s, which isolated modules cannot read, so their values are named
// here: Argon2id is 2 and Argon2 version 0x13 is 1 (see the package's index.d.ts).
const ARGON2ID: Algorithm = 2;
const VERSION_0X13: Version = 1;

/**
 * OWASP Password Storage Cheat Sheet, "Argon2id": "a minimum configuration of 19 MiB of memory, an iteration
 * count of 2, and 1 degree of parallelism" (m=19456 KiB, t=2, p=1), the first of its equivalent
 * configurations; NIST SP 800-63B-4 §3.1.1.2 asks for a salted password hashing scheme with the cost stored
 * beside each hash. A 16-byte random salt (the package's default) and a 32-byte hash.
 */
export const ARGON2_PARAMETERS = {
  algorithm: ARGON2ID,
  version: VERSION_0X13,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const satisfies Options;

/** The PHC string to store for `password` (normalised first, see password-text.ts). */
export function hashPassword(password: string): Promise<string> {
  return hash(normalizePassword(password), ARGON2_PARAMETERS);
}

/**
 * Whether `password` is the one `stored` was made from. The comparison is the library's, in constant time.
 * A `stored` value that is not an Argon2 hash is an error (damaged data), never a match; the error's message
 * does not contain the password.
 */
export function verifyPassword(stored: string, password: string): Promise<boolean> {
  return verify(stored, normalizePassword(password));
}

/**
 * Whether `stored` was made with other parameters than today's (or is no Argon2 hash at all), so the sign-in
 * should store `hashPassword(password)` in its place once the password has been verified.
 */
export function needsRehash(stored: string): boolean {
  let used: ReturnType<typeof parseOptions>;
  try {
    used = parseOptions(stored);
  } catch {
    return true;
  }
  return (
    used.algorithm !== ARGON2_PARAMETERS.algorithm ||
    used.version !== ARGON2_PARAMETERS.version ||
    used.memoryCost !== ARGON2_PARAMETERS.memoryCost ||
    used.timeCost !== ARGON2_PARAMETERS.timeCost ||
    used.parallelism !== ARGON2_PARAMETERS.parallelism ||
    used.outputLen !== ARGON2_PARAMETERS.outputLen
  );
}

let dummyHash: Promise<string> | undefined;

/**
 * What the sign-in does when no active person has the e-mail address given: the same Argon2 verification as
 * for a real account, against a hash of a random secret made with today's parameters, so the time taken
 * does not tell whether an address is known (ASVS 5 V6.3.8). Always false. The hash is made at the first
 * call and kept; that first call alone also pays for making it.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hash(randomBytes(32), ARGON2_PARAMETERS);
  await verifyPassword(await dummyHash, password);
  return false;
}
