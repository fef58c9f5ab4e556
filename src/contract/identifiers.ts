/**
 * Rules that need no schema library, kept apart so the case lookup (the first page) loads none:
 * what a form or case identifier can look like, and the latest date a shop means.
 */
import type { ErrorDetail } from './site-api';

/**
 * Identifiers of forms and cases: 1 to 64 ASCII letters, digits, "_" and "-". ASCII only, by decision:
 * the platform's identifiers are numbers and schema names such as `form_3`, and the proxy relies on an
 * identifier never needing more than this in a URL path segment.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_IDENTIFIER_LENGTH = 64;

/** 9999-12-31T23:59:59Z: beyond it a date is not a date a shop means. */
export const MAX_EPOCH_SECONDS = 253402300799;

const ALLOWED = /[A-Za-z0-9_-]/;

/** The characters of `value` an identifier may not hold, each once, in order, named where unseen. */
function refusedCharacters(value: string): string[] {
  const refused = new Set<string>();
  for (const char of value) if (!ALLOWED.test(char)) refused.add(char);
  return [...refused].map((char) => {
    if (char === ' ') return 'a space';
    if (char === '\t') return 'a tab';
    if (char === '\n' || char === '\r') return 'a line break';
    // Other spaces and control characters are invisible between quotes: name their code point.
    if (/[\s\p{C}]/u.test(char)) return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `“${char}”`;
  });
}

/** Why `value` cannot be an identifier, or null when it can. `what` names it: "The case identifier". */
export function identifierProblem(value: string, what: string): string | null {
  if (IDENTIFIER_PATTERN.test(value)) return null;
  if (value === '') return `${what} is empty`;
  if (value.length > MAX_IDENTIFIER_LENGTH) return `${what} is longer than ${MAX_IDENTIFIER_LENGTH} characters`;
  const all = refusedCharacters(value);
  // Five are enough to see the pattern; a pasted paragraph must not become a paragraph of names.
  const refused = all.length > 5 ? [...all.slice(0, 5), 'others'] : all;
  const list = refused.length > 1 ? `${refused.slice(0, -1).join(', ')} and ${refused.at(-1) ?? ''}` : (refused[0] ?? '');
  return `${what} may contain only ASCII letters (A–Z, a–z), digits (0–9), "_" and "-", not ${list}`;
}

/** The case lookup's identifiers; empty list when both can be identifiers. */
export function caseIdentifierViolations(form: string, id: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const formProblem = identifierProblem(form, 'The form identifier');
  const idProblem = identifierProblem(id, 'The case identifier');
  if (formProblem) details.push({ field: 'form', message: formProblem });
  if (idProblem) details.push({ field: 'id', message: idProblem });
  return details;
}
