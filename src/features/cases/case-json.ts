/** The case as JSON text and its file name. */
import { reindentJson } from '@/lib/exact-json';

/** The platform's own text, indented for reading; nothing but whitespace changes (see reindentJson). */
export function caseJson(text: string): string {
  return reindentJson(text);
}

/** `form-3-case-48217.json`; anything outside letters, digits, "_" and "-" becomes "_". */
export function caseFileName(form: string, id: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || '_';
  return `form-${safe(form)}-case-${safe(id)}.json`;
}
