/**
 * Reading a list's raw query string (without the `?`, still encoded) into its named parameters: each
 * written name=value in URL encoding (`+` a space, as a form writes it), each at most once, none unknown.
 * What the lists of cases and of products share; each then checks its own values. Without zod: the
 * server reads every list request with it.
 */
import type { ErrorDetail } from './site-api';

/** Decodes one parameter's name or value as a form does (`+` is a space); null for text that does not decode. */
function decodeQueryPart(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The value of each parameter of `names` given, and a detail for each part that is not one of them. */
export function readQueryParameters<P extends string>(
  rawQuery: string,
  names: readonly P[],
): { values: Map<P, string>; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const values = new Map<P, string>();
  const isName = (name: string): name is P => names.some((known) => known === name);
  for (const part of rawQuery === '' ? [] : rawQuery.split('&')) {
    const equals = part.indexOf('=');
    const name = decodeQueryPart(equals < 0 ? part : part.slice(0, equals));
    const value = equals < 0 ? null : decodeQueryPart(part.slice(equals + 1));
    if (part === '') {
      details.push({ field: 'query', message: 'has an empty parameter (an "&" too many)' });
    } else if (name === null || value === null) {
      details.push({ field: name ?? 'query', message: 'is not a parameter written name=value in URL encoding' });
    } else if (!isName(name)) {
      details.push({ field: name.slice(0, 64), message: `is not a parameter of the list (use ${names.join(', ')})` });
    } else if (values.has(name)) {
      details.push({ field: name, message: 'is given more than once' });
    } else values.set(name, value);
  }
  return { values, details };
}

const POSITIVE_INTEGER = /^[1-9]\d{0,6}$/;

/** A whole number from 1 to `max` written as digits, or undefined. */
export function positiveInteger(text: string, max: number): number | undefined {
  return POSITIVE_INTEGER.test(text) && Number(text) <= max ? Number(text) : undefined;
}
