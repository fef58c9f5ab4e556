/**
 * The rules of a new password, each test named after the OWASP ASVS 5.0 requirement it shows met. The
 * passwords here are typed out, not taken from the blocklist's own source, so a list that lost its entries
 * would fail.
 */
import { describe, expect, it } from 'vitest';
import {
  checkNewPassword,
  MAX_LENGTH,
  MIN_LENGTH_ALONE,
  MIN_LENGTH_WITH_SECOND_FACTOR,
  type PasswordOwner,
  type PasswordRule,
} from './password-policy';

const ADA: PasswordOwner = { name: 'Ada Lovelace', email: 'ada.lovelace+work@example.com', secondFactorRequired: false };
const ADA_WITH_PASSKEY: PasswordOwner = { ...ADA, secondFactorRequired: true };

const rules = (password: string, owner: PasswordOwner = ADA): PasswordRule[] =>
  checkNewPassword(password, owner).map((problem) => problem.rule);

/** `length` characters of an unremarkable passphrase (no repeats long enough to count as a pattern). */
const passphrase = (length: number): string => 'tulip kettle harbour lantern rhubarb violin '.repeat(10).slice(0, length);

describe('length', () => {
  it('V6.2.1: a password that is the only factor needs 15 characters (14 refused, 15 accepted)', () => {
    expect(MIN_LENGTH_ALONE).toBe(15);
    expect(checkNewPassword(passphrase(14), ADA)).toEqual([
      { rule: 'too-short', message: 'Use at least 15 characters; this has 14. A few words with spaces make a good password.' },
    ]);
    expect(rules(passphrase(15))).toEqual([]);
  });

  it('V6.2.1: with a second factor required, 8 characters are enough (7 refused, 8 accepted)', () => {
    expect(MIN_LENGTH_WITH_SECOND_FACTOR).toBe(8);
    expect(rules(passphrase(7), ADA_WITH_PASSKEY)).toEqual(['too-short']);
    expect(rules(passphrase(8), ADA_WITH_PASSKEY)).toEqual([]);
    expect(rules(passphrase(8), ADA)).toEqual(['too-short']);
  });

  it('V6.2.9: passwords of 64 characters and up to 256 are accepted; 257 are refused, saying the maximum', () => {
    expect(rules(passphrase(64))).toEqual([]);
    expect(rules(passphrase(MAX_LENGTH))).toEqual([]);
    expect(checkNewPassword(passphrase(MAX_LENGTH + 1), ADA)).toEqual([
      { rule: 'too-long', message: 'Use at most 256 characters; this has 257.' },
    ]);
  });

  it('V6.2.1: length counts Unicode code points after NFKC normalisation, so an emoji is one character', () => {
    // 14 code points (28 UTF-16 units): one short.
    const emoji = '🦊🌻🚲🎻🍵🧭🪁🐙🌋🎲🧵🪴🦉🍋';
    expect(rules(emoji)).toEqual(['too-short']);
    expect(rules(`${emoji}🛶`)).toEqual([]);
    // "é" as "e" and a combining accent is two code points before NFKC and one after.
    const decomposed = 'cafe\u0301 au lait noir'; // 18 code points as typed, 17 once normalised
    expect(rules(decomposed)).toEqual([]);
    expect(rules('cafe\u0301 au lait n', ADA)).toEqual(['too-short']); // 15 as typed, 14 normalised
  });
});

describe('any characters, no composition rules', () => {
  it('V6.2.5: lower-case letters alone, spaces, Unicode and symbols are all accepted; nothing requires a mix', () => {
    expect(rules('harbour lantern rhubarb')).toEqual([]);
    expect(rules('harbourlanternrhubarb')).toEqual([]);
    expect(rules('Жёлтый трамвай у моста')).toEqual([]);
    expect(rules('東京の古い路面電車がとても好きです')).toEqual([]);
    expect(rules('   spaces  at both   ends   ')).toEqual([]);
    expect(rules('¿Dónde está el café? ☕ 42')).toEqual([]);
  });
});

describe('the blocklist of common and breached passwords', () => {
  it('V6.2.4, V6.2.12: common passwords are refused, whatever their case, with a reason a person understands', () => {
    for (const common of ['password', 'baseball', 'iloveyou', 'sunshine', 'trustno1', 'passw0rd', 'qwertyuiop']) {
      expect(rules(common, ADA_WITH_PASSKEY)).toContain('common');
    }
    expect(checkNewPassword('BaseBall', ADA_WITH_PASSKEY)).toEqual([
      { rule: 'common', message: 'This is one of the most common passwords, among the first that attackers try.' },
    ]);
    // Long enough for a password alone, and still on the list.
    expect(rules('passwordstandard')).toEqual(['common']);
  });

  it('V6.2.4: a common password with digits, symbols or spaces added at its ends is refused as common', () => {
    expect(rules('Password2024!!!!')).toEqual(['common']);
    expect(rules('  sunshine 1987 ', ADA_WITH_PASSKEY)).toEqual(['common']);
    expect(rules('**football**', ADA_WITH_PASSKEY)).toEqual(['common']);
  });

  it('V6.2.4: the whole password is compared, not its words, so a passphrase of common words is accepted', () => {
    expect(rules('dragon monkey shadow')).toEqual([]);
    expect(rules('correct horse battery staple')).toEqual([]);
  });
});

describe('repetitive and sequential passwords', () => {
  it.each([
    ['one character repeated', 'aaaaaaaaaaaaaaa'],
    ['a group repeated', 'abcabcabcabcabc'],
    ['a repetition with one other character', 'aaaaaaaaaaaaaab'],
    ['digits in order', '123456789012345'],
    ['letters in reverse order', 'zyxwvutsrqponml'],
    ['a keyboard row', 'qwertyuiopasdfg'],
    ['keyboard columns', '1qaz2wsx3edc4rfv'],
    ['a keyboard row and digits', 'qwerty123456789'],
    ['an emoji repeated', '🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂'],
    ['an emoji repeated up to the maximum length', '🙂'.repeat(256)],
  ])('V6.2.4: %s is refused', (_what, password) => {
    expect(rules(password)).toContain('repetitive');
  });

  it('V6.2.4: the reason names the patterns; a pattern inside a passphrase is fine', () => {
    expect(checkNewPassword('abababababababab', ADA)).toEqual([
      {
        rule: 'repetitive',
        message: 'This is mostly a repetition, a sequence or a row of keys (like aaaa, abcabc, 1234 or qwerty), which is easy to guess.',
      },
    ]);
    expect(rules('my 1234 lantern in the rain')).toEqual([]);
    expect(rules('we were there at the start')).toEqual([]);
  });
});

describe('context-specific words', () => {
  it('V6.2.11: the person\u2019s name is refused anywhere in the password, in any case or spelling of accents', () => {
    expect(checkNewPassword('i am lovelace the great', ADA)).toEqual([
      { rule: 'contains-name', message: 'This contains your name, which is easy to guess.' },
      {
        rule: 'contains-email',
        message: 'This contains your e-mail address (the part before the @), which is easy to guess.',
      },
    ]);
    const zoe: PasswordOwner = { name: 'Zoë Müller', email: 'z.m@example.com', secondFactorRequired: false };
    expect(rules('MULLER rides a tram daily', zoe)).toEqual(['contains-name']);
    expect(rules('zoemuller in the morning', zoe)).toEqual(['contains-name']);
    // Words of the name shorter than 4 characters are not looked for: "Ada" is in "Canada".
    expect(rules('flying to canada in june', ADA)).toEqual([]);
  });

  it('V6.2.11: the e-mail address\u2019s local part is refused; its "+tag" and domain are not the person', () => {
    const sam: PasswordOwner = { name: 'Sam Okafor', email: 'skipper7+shop@harbour-linen.example', secondFactorRequired: false };
    expect(rules('hello skipper7 my friend', sam)).toEqual(['contains-email']);
    expect(rules('Okafor bakes bread daily', sam)).toEqual(['contains-name']);
    expect(rules('shop early on a sunday', sam)).toEqual([]);
  });

  it('V6.2.11, V6.1.2: the application\u2019s name "site-admin" is refused in any case or spacing', () => {
    for (const password of ['my site-admin password', 'SITE ADMIN forever and ever', 'Site_Admin rules the shop']) {
      expect(rules(password)).toEqual(['contains-app-name']);
    }
    expect(checkNewPassword('siteadmin lantern rhubarb', ADA)).toEqual([
      {
        rule: 'contains-app-name',
        message: 'This contains "site-admin", the name of this application, which is easy to guess.',
      },
    ]);
    // "admin" alone is an ordinary word.
    expect(rules('administrative duty roster')).toEqual([]);
  });
});

describe('all reasons at once', () => {
  it('V6.2.4, V6.2.11: every reason is given, each a sentence', () => {
    const problems = checkNewPassword('lovelace', ADA);
    expect(problems.map((problem) => problem.rule)).toEqual(['too-short', 'common', 'contains-name', 'contains-email']);
    for (const problem of problems) expect(problem.message).toMatch(/^[A-Z].*\.$/);
    expect(rules('')).toEqual(['too-short']);
  });
});
