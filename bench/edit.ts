/**
 * Correcting a product: a 20 × 25 product created on the bench's sandbox, opened at /catalogue/:id in
 * a fresh page each round. The page itself measures (edit-session.tsx, edit-review.tsx):
 * - `product-edit:open`: from the product's answer read (getProduct done) to the first frame after the
 *   editor mounted with it, openForEdit included; `product-edit:open-for-edit`: openForEdit alone;
 * - answer → read: from the answer's last byte (Resource Timing's responseEnd of the GET) to that mark,
 *   so parsing, reading the record and its fingerprint are counted too;
 * - `product-edit:diff`: Review's diff of the product against the form, the product's name changed and
 *   every option compared.
 * Medians over the rounds; the bench reports, it never fails on a figure.
 */
import type { Browser } from '@playwright/test';
import { API_BASE_PATH } from '../src/contract/site-api-basics';
import { encodeProduct, settingsForLocale } from '../src/features/products/model/codec';
import { newBenchContext } from './browser';
import { buildProduct } from './product-fixture';
import { median, round } from './stats';

export interface EditFigures {
  size: string;
  rounds: number;
  /** Answer's last byte → the editor's first frame with it (ms). */
  answerToEditorMs: number;
  /** getProduct done → the editor's first frame with it (ms). */
  openMs: number;
  openForEditMs: number;
  /** Review's diff of the 20 × 25 product (ms). */
  reviewDiffMs: number;
}

const SIZE = { attributes: 20, options: 25 };

async function createProduct(origin: string): Promise<string> {
  const form = buildProduct(SIZE);
  form.slug = `bench-edit-${Date.now()}`;
  const body = encodeProduct(form, settingsForLocale('en-US')).body;
  const response = await fetch(`${origin}${API_BASE_PATH}/ecommerce/products/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { id?: unknown };
  if (!response.ok || typeof answer.id !== 'string') throw new Error(`The bench product was not created: ${response.status}`);
  return answer.id;
}

export async function runEditBenchmark(
  browser: Browser,
  origin: string,
  rounds: number,
  log: (line: string) => void,
): Promise<EditFigures> {
  const id = await createProduct(origin);
  const runs: { answerToEditor: number; open: number; openForEdit: number; diff: number }[] = [];
  for (let round_ = 0; round_ < rounds; round_ += 1) {
    const context = await newBenchContext(browser, origin);
    try {
      const page = await context.newPage();
      await page.goto(`/catalogue/${id}`);
      await page.getByRole('heading', { level: 1, name: /^Edit product:/ }).waitFor();
      await page.waitForFunction(() => performance.getEntriesByName('product-edit:open', 'measure').length > 0);
      const name = page.getByRole('textbox', { name: /^Name/ });
      await name.fill(`${await name.inputValue()} (corrected)`);
      for (let i = 0; i < 4; i += 1) await page.getByRole('button', { name: /^Next:/ }).click();
      await page.getByRole('table', { name: 'Changes to save' }).waitFor();
      const figures = await page.evaluate((path) => {
        const last = (name: string) => performance.getEntriesByName(name, 'measure').at(-1)?.duration ?? NaN;
        const open = performance.getEntriesByName('product-edit:open', 'measure')[0];
        const answer = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith(path)) as
          PerformanceResourceTiming | undefined;
        const openEnd = open ? open.startTime + open.duration : NaN;
        return {
          answerToEditor: answer ? openEnd - answer.responseEnd : NaN,
          open: open?.duration ?? NaN,
          openForEdit: last('product-edit:open-for-edit'),
          diff: last('product-edit:diff'),
        };
      }, `${API_BASE_PATH}/ecommerce/products/${id}`);
      runs.push(figures);
    } finally {
      await context.close();
    }
  }
  const pick = (key: keyof (typeof runs)[number]) => round(median(runs.map((run) => run[key])), 1);
  const figures: EditFigures = {
    size: `${SIZE.attributes}×${SIZE.options}`,
    rounds,
    answerToEditorMs: pick('answerToEditor'),
    openMs: pick('open'),
    openForEditMs: pick('openForEdit'),
    reviewDiffMs: pick('diff'),
  };
  log(
    `  ${figures.size}: answer → editor ${figures.answerToEditorMs} ms (open ${figures.openMs} ms, openForEdit ${figures.openForEditMs} ms), Review's diff ${figures.reviewDiffMs} ms`,
  );
  return figures;
}
