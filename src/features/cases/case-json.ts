/** The case as JSON text, its file name, and saving it as a download. */
import type { FormCase } from '@/contract/site-api';

export function caseJson(record: FormCase): string {
  return JSON.stringify(record, null, 2);
}

/** `form-3-case-48217.json`; anything outside letters, digits, "_" and "-" becomes "_". */
export function caseFileName(form: string, id: string): string {
  const safe = (part: string) => part.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || '_';
  return `form-${safe(form)}-case-${safe(id)}.json`;
}

export function downloadJson(fileName: string, json: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download by now; give it a moment before freeing the data.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
