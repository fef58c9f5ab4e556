/**
 * What a password is before anything measures, compares or hashes it: one home for this, so the policy's
 * length, its comparisons and the stored hash all see the same characters.
 */

/**
 * The password in Unicode NFKC form. NIST SP 800-63B-4 §3.1.1.2 asks verifiers that accept Unicode to
 * normalise with NFKC or NFKD before hashing: the same "é" typed on two keyboards (one code point, or "e"
 * plus a combining accent) or pasted from a full-width field must still sign in. Nothing else is changed:
 * no case folding, no trimming, no truncation (ASVS 5 V6.2.8).
 */
export function normalizePassword(password: string): string {
  return password.normalize('NFKC');
}

/**
 * The length NIST counts: Unicode code points of the normalised password (§3.1.1.2: "each Unicode code
 * point SHALL be counted as a single character"), so an emoji is one character, not two UTF-16 units.
 */
export function passwordLength(normalized: string): number {
  let count = 0;
  for (const _ of normalized) count += 1;
  return count;
}
