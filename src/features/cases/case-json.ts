/** The case as JSON text and its file name. */
import type { FormCase } from '@/contract/site-api';

export function caseJson(record: FormCase): string {
  return JSON.stringify(record, null, 2);
}

/** `form-3-case-48217.json`; anything outside letters, digits, "_" and "-" becomes "_". */
export function caseFileName(form: string, id: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || '_';
  return `form-${safe(form)}-case-${safe(id)}.json`;
}
