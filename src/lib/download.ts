/** Saves text as a file through the browser's download. */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  downloadBlob(fileName, new Blob([text], { type }));
}

/** Saves a file the page made (a workbook, say) through the browser's download. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
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

/** Saves a value as a pretty-printed `.json` file. */
export function downloadJson(fileName: string, value: unknown): void {
  downloadText(fileName, `${JSON.stringify(value, null, 2)}\n`);
}
