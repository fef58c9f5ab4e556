/**
 * Case viewer with a 500-field case: from Enter in the lookup form to every row painted (the lookup goes
 * through the proxy, as in use), then keystrokes in the field filter. Medians over several sessions.
 */
import type { Browser } from '@playwright/test';
import { newBenchContext, timeToPaint, typeAndMeasure, withRetry } from './browser';
import { addBigCase, CASE_FIELDS, CASE_FORM } from './case-fixture';
import { KEY_DELAY_MS, summariseKeystrokes, type KeystrokeFigures, type KeystrokeSummary } from './keystrokes';
import { median, round } from './stats';

/** Queries typed and then deleted key by key: narrowing, then widening back to all 500 rows. */
const FILTER_KEYS = ['field 4', 'example', 'order 2026', 'cuba'].flatMap((query) => [
  ...query,
  ...Array.from(query, () => 'Backspace'),
]);

export interface CasesFigures {
  fields: number;
  runs: number;
  /** Enter in the lookup form → all rows painted. */
  renderMs: number;
  filter: KeystrokeSummary;
}

async function casesSession(browser: Browser, origin: string, caseId: string): Promise<{ renderMs: number; filter: KeystrokeFigures }> {
  const context = await newBenchContext(browser, origin);
  try {
    const page = await context.newPage();
    await page.goto('/cases');
    await page.getByRole('textbox', { name: 'Form identifier' }).fill(CASE_FORM);
    const idBox = page.getByRole('textbox', { name: 'Case identifier' });
    await idBox.fill(caseId);
    const renderMs = await timeToPaint(page, 'keydown', 'tbody tr', () => idBox.press('Enter'), CASE_FIELDS);
    await page.getByLabel('Filter fields', { exact: true }).click();
    const filter = await typeAndMeasure(page, FILTER_KEYS, KEY_DELAY_MS);
    return { renderMs, filter };
  } finally {
    await context.close();
  }
}

export async function runCasesBenchmark(
  browser: Browser,
  origin: string,
  sandboxOrigin: string,
  rounds: number,
  log: (line: string) => void,
): Promise<CasesFigures> {
  const caseId = await addBigCase(sandboxOrigin);
  await withRetry('warm-up', () => casesSession(browser, origin, caseId), log); // Unmeasured.
  const runs: { renderMs: number; filter: KeystrokeFigures }[] = [];
  for (let r = 0; r < rounds; r += 1) {
    log(`  round ${r + 1}/${rounds}`);
    runs.push(await withRetry('case viewer', () => casesSession(browser, origin, caseId), log));
  }
  return {
    fields: CASE_FIELDS,
    runs: runs.length,
    renderMs: round(median(runs.map((r) => r.renderMs))),
    filter: summariseKeystrokes(runs.map((r) => r.filter)),
  };
}
