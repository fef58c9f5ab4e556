/**
 * The rules a new password must meet, after NIST SP 800-63B-4 §3.1.1 (Passwords) and OWASP ASVS 5 V6.2.
 * It returns every reason a password is refused, each with a rule id for code and a sentence for the
 * person choosing it (§3.1.1.2: the verifier "SHALL provide the reason for rejection").
 *
 * What it deliberately does not do: no composition rules, no required mix of letters, digits or symbols
 * (§3.1.1.1 and §3.1.1.2: "SHALL NOT impose other composition rules"; ASVS V6.2.5); any character is
 * allowed, spaces and Unicode included (§3.1.1.2). Strength guidance while typing is the strength meter's job
 * in the browser; these are the rules the server enforces.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { normalizePassword, passwordLength } from './password-text';

/**
 * §3.1.1.2: "SHALL require passwords that are used as a single-factor authentication mechanism to be a
 * minimum of 15 characters"; passwords "only used as part of multi-factor authentication processes" may be
 * shorter but at least eight.
 */
export const MIN_LENGTH_ALONE = 15;
export const MIN_LENGTH_WITH_SECOND_FACTOR = 8;

/**
 * §3.1.1.2 asks for a maximum of at least 64 (ASVS V6.2.9). 256 leaves room for long passphrases and
 * generated passwords; Argon2 pre-hashes its input, so a long password costs no more to hash. The bound
 * keeps the pattern check below (which grows with the length) and what a request may make the server do
 * small.
 */
export const MAX_LENGTH = 256;

/** The application's own name, one of the context-specific words of §3.1.1.2 and ASVS V6.1.2. */
const APP_NAME = 'site-admin';

/**
 * Pieces of a name or an e-mail address shorter than this are not looked for inside a password: they occur
 * by chance in ordinary words ("Tom" in "tomorrow", "Ann" in "planning") and would refuse good passphrases.
 */
const MIN_CONTEXT_WORD = 4;

/**
 * Patterned characters may leave at most this many others before the password counts as repetitive or
 * sequential: "aaaaaaaaaaaaaab" is as easy to guess as "aaaaaaaaaaaaaaa".
 */
const MAX_UNPATTERNED = 3;

export type PasswordRule = 'too-short' | 'too-long' | 'common' | 'repetitive' | 'contains-name' | 'contains-email' | 'contains-app-name';

export interface PasswordProblem {
  rule: PasswordRule;
  /** A short sentence for the person choosing the password. */
  message: string;
}

export interface PasswordOwner {
  /** The person's display name. */
  name: string;
  /** The person's e-mail address (their sign-in name). */
  email: string;
  /**
   * Whether every sign-in with this password must also pass a second factor (a passkey). Pass what is
   * required of the person, not what they happen to have registered: a password shorter than 15 characters
   * must never become the only factor when a passkey is removed.
   */
  secondFactorRequired: boolean;
}

/**
 * The blocklist (§3.1.1.2: "commonly used, expected, or compromised passwords"; ASVS V6.2.4 and V6.2.12):
 * zxcvbn-ts's list of the most common passwords (`passwords-common`, about 49,000, all lower case), read
 * from the installed package rather than copied. Entries shorter than MIN_CONTEXT_WORD are left out: the
 * length rule refuses them whole, and as the core of a decorated password (below) they would refuse
 * mostly random ones.
 */
const BLOCKLIST: ReadonlySet<string> = new Set(dictionary['passwords-common'].filter((entry) => passwordLength(entry) >= MIN_CONTEXT_WORD));

/** Digits, punctuation, symbols and spaces at either end: what people add to a common password. */
const DECORATION = /^[\p{N}\p{P}\p{S}\s]+|[\p{N}\p{P}\p{S}\s]+$/gu;

/**
 * The whole password compared case-insensitively, as §3.1.1.2 asks ("the entire password SHALL be subject
 * to comparison, not substrings or words"), and again without digits, punctuation and spaces at its ends,
 * since §3.1.1.2 wants trivial changes to listed passwords discouraged: "Password2024!" is "password".
 */
function isCommon(normalized: string): boolean {
  const lower = normalized.toLowerCase();
  return BLOCKLIST.has(lower) || BLOCKLIST.has(lower.replace(DECORATION, ''));
}

/**
 * zxcvbn-ts's pattern matchers without its dictionaries: repeats ("aaaa", "abcabc"), sequences ("1234",
 * "zyxw") and keyboard runs ("qwerty", "1qaz2wsx", "azerty" and the other layouts of language-common).
 */
// zxcvbn's maxLength counts UTF-16 units and it ignores the rest; MAX_LENGTH code points take at most twice as many.
const patterns = new ZxcvbnFactory({ dictionary: {}, graphs: adjacencyGraphs, maxLength: 2 * MAX_LENGTH });
const PATTERNED = new Set(['repeat', 'sequence', 'spatial']);

/**
 * Whether the password is (almost) nothing but repetitions, sequences and keyboard runs, i.e. an "expected"
 * value in the sense of §3.1.1.2. zxcvbn splits the password into the cheapest sequence of patterns; what
 * those patterns do not cover must be more than MAX_UNPATTERNED characters.
 */
function isRepetitive(normalized: string): boolean {
  const covered = new Array<boolean>(normalized.length).fill(false);
  for (const match of patterns.check(normalized).sequence) {
    if (PATTERNED.has(match.pattern)) covered.fill(true, match.i, match.j + 1);
  }
  let unpatterned = 0;
  let index = 0;
  for (const character of normalized) {
    if (!covered[index]) unpatterned += 1;
    index += character.length;
  }
  return unpatterned <= MAX_UNPATTERNED;
}

/**
 * Text reduced to what a comparison of words should see: compatibility forms unified, accents dropped,
 * lower case, and only letters and digits kept, so "Zoë Müller", "zoe.muller" and "ZOE-MULLER" meet.
 */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The folded words of a name or an address worth looking for: the whole of it, and each of its words. */
function contextWords(text: string): string[] {
  const words = [text, ...text.split(/[^\p{L}\p{N}\p{M}]+/u)].map(fold);
  return words.filter((word) => passwordLength(word) >= MIN_CONTEXT_WORD);
}

/**
 * The context-specific words of §3.1.1.2 ("the name of the service, the username, and derivatives thereof")
 * and ASVS V6.1.2/V6.2.11, looked for anywhere in the password (not only as the whole of it, as the
 * blocklist is): a password containing its owner's name or address is among the first guesses of anyone
 * who knows whose account it is.
 */
function containsAny(foldedPassword: string, words: string[]): boolean {
  return words.some((word) => foldedPassword.includes(word));
}

/** The local part of an e-mail address, without a "+tag" (a sub-address says nothing about the person). */
function emailName(email: string): string {
  const at = email.lastIndexOf('@');
  const local = at < 0 ? email : email.slice(0, at);
  return local.split('+')[0] ?? '';
}

/**
 * Every reason `password` may not become `owner`'s new password; none means it is accepted. The checks run
 * on the password as it will be hashed (NFKC, see password-text.ts).
 */
export function checkNewPassword(password: string, owner: PasswordOwner): PasswordProblem[] {
  const normalized = normalizePassword(password);
  const length = passwordLength(normalized);
  const problems: PasswordProblem[] = [];

  const minimum = owner.secondFactorRequired ? MIN_LENGTH_WITH_SECOND_FACTOR : MIN_LENGTH_ALONE;
  if (length < minimum) {
    problems.push({
      rule: 'too-short',
      message: `Use at least ${minimum} characters; this has ${length}. A few words with spaces make a good password.`,
    });
  }
  if (length > MAX_LENGTH) {
    problems.push({ rule: 'too-long', message: `Use at most ${MAX_LENGTH} characters; this has ${length}.` });
  }
  if (isCommon(normalized)) {
    problems.push({
      rule: 'common',
      message: 'This is one of the most common passwords, among the first that attackers try.',
    });
  }
  // Over the maximum the person must shorten it anyway, and the pattern check's cost grows with the length.
  if (length > 0 && length <= MAX_LENGTH && isRepetitive(normalized)) {
    problems.push({
      rule: 'repetitive',
      message: 'This is mostly a repetition, a sequence or a row of keys (like aaaa, abcabc, 1234 or qwerty), which is easy to guess.',
    });
  }
  const folded = fold(normalized);
  if (containsAny(folded, contextWords(owner.name))) {
    problems.push({ rule: 'contains-name', message: 'This contains your name, which is easy to guess.' });
  }
  if (containsAny(folded, contextWords(emailName(owner.email)))) {
    problems.push({
      rule: 'contains-email',
      message: 'This contains your e-mail address (the part before the @), which is easy to guess.',
    });
  }
  if (folded.includes(fold(APP_NAME))) {
    problems.push({
      rule: 'contains-app-name',
      message: `This contains "${APP_NAME}", the name of this application, which is easy to guess.`,
    });
  }
  return problems;
}
