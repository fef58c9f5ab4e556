import { describe, expect, it } from 'vitest';
import { caseIdentifierViolations, identifierProblem } from './identifiers';

const RULE = 'may contain only ASCII letters (A–Z, a–z), digits (0–9), "_" and "-"';

describe('caseIdentifierViolations', () => {
  it('accepts platform identifiers', () => {
    expect(caseIdentifierViolations('3', '48211')).toEqual([]);
    expect(caseIdentifierViolations('form_3', 'A-b_9')).toEqual([]);
    expect(caseIdentifierViolations('x'.repeat(64), 'y'.repeat(64))).toEqual([]);
  });

  it('names an empty form identifier', () => {
    expect(caseIdentifierViolations('', '1')).toEqual([{ field: 'form', message: 'The form identifier is empty' }]);
  });

  it('names a case identifier longer than 64 characters', () => {
    expect(caseIdentifierViolations('3', '1'.repeat(65))).toEqual([
      { field: 'id', message: 'The case identifier is longer than 64 characters' },
    ]);
  });

  it.each([
    ['a/b', '“/”'],
    ['..', '“.”'],
    ['1 2', 'a space'],
    ['café', '“é”'],
    ['ü', '“ü”'],
    ['1;DROP', '“;”'],
    ['%2F', '“%”'],
    ['<b>', '“<” and “>”'],
    ['a\tb\nc', 'a tab and a line break'],
    ['1\u00a02', 'U+00A0'],
    ['日本語', '“日”, “本” and “語”'],
    ['!"#$%&', '“!”, “"”, “#”, “$”, “%” and others'],
  ])('refuses %j, saying the rule and what does not fit it (%s)', (value, named) => {
    expect(caseIdentifierViolations(value, '1')).toEqual([{ field: 'form', message: `The form identifier ${RULE}, not ${named}` }]);
    expect(caseIdentifierViolations('3', value)).toEqual([{ field: 'id', message: `The case identifier ${RULE}, not ${named}` }]);
  });

  it('names both when both are wrong', () => {
    expect(caseIdentifierViolations('', '').map((d) => d.field)).toEqual(['form', 'id']);
  });
});

describe('identifierProblem', () => {
  it('says nothing about a good identifier and uses the name it is given', () => {
    expect(identifierProblem('48217', 'The case identifier')).toBeNull();
    expect(identifierProblem('a b', 'Your identifier')).toBe(`Your identifier ${RULE}, not a space`);
  });
});
