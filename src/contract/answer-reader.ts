/**
 * What reads an answer of our own server: a zod schema of the contract, or, for what the first pages read,
 * a reader written without zod with the same `safeParse` (decision 0003). The fetch layer only calls
 * `safeParse`, so it loads no zod itself.
 */

export interface AnswerReader<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

/** A reader from a function that answers null for what it cannot read. */
export function readerOf<T>(read: (value: unknown) => T | null): AnswerReader<T> {
  return {
    safeParse: (value) => {
      const data = read(value);
      return data === null ? { success: false } : { success: true, data };
    },
  };
}
