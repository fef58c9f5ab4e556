/**
 * Editor at scale: the same session with products of 1 × 1, 5 × 10 and 20 × 25, interleaved round by
 * round so that the machine's noise falls on every size alike; medians over the rounds.
 */
import type { Browser } from '@playwright/test';
import { withRetry } from './browser';
import { controlSession, editorSession, importGridSession, type EditorRun } from './editor-session';
import { summariseKeystrokes, type KeystrokeFigures, type KeystrokeSummary } from './keystrokes';
import { sizeLabel, type ProductSize } from './product-fixture';
import { median, ratio, round } from './stats';

export const EDITOR_SIZES: readonly ProductSize[] = [
  { attributes: 1, options: 1 },
  { attributes: 5, options: 10 },
  { attributes: 20, options: 25 },
];

const TIMINGS = ['attributesPaintMs', 'heapMB', 'expandAttributeMs', 'expandOptionMs', 'reviewMs'] as const;
export type Timing = (typeof TIMINGS)[number];

export type EditorSummary = Record<Timing, number> & {
  size: string;
  runs: number;
  optionName: KeystrokeSummary;
  priceCell: KeystrokeSummary;
};

/** Chromium's CPU slowed this many times (DevTools' "4× slowdown"): a mid-range laptop beside this machine. */
export const SLOW_CPU_RATE = 4;

export interface KeystrokesOnSlowCpu {
  cpuRate: number;
  /** The largest product's option name and price cell, the import grid's cell and the bare input. */
  optionName: KeystrokeSummary;
  priceCell: KeystrokeSummary;
  importCell: KeystrokeSummary;
  control: KeystrokeSummary;
}

export interface EditorFigures {
  sizes: EditorSummary[];
  /** The same keys in a bare <input> with no app: the floor on this machine. */
  control: KeystrokeSummary;
  /** The same keys in an edited cell of the import grid (200 products). */
  importCell: KeystrokeSummary;
  /** The largest product, the import grid and the bare input again with the CPU slowed down. */
  slowCpu: KeystrokesOnSlowCpu;
  /** 20 × 25 figure / 1 × 1 figure, for every timing and the probe's keystroke percentiles. */
  ratioLargestToSmallest: Record<string, number>;
}

function summarise(size: ProductSize, runs: readonly EditorRun[]): EditorSummary {
  const timings = Object.fromEntries(TIMINGS.map((name) => [name, round(median(runs.map((r) => r[name])))])) as Record<Timing, number>;
  return {
    size: sizeLabel(size),
    runs: runs.length,
    ...timings,
    optionName: summariseKeystrokes(runs.map((r) => r.optionName)),
    priceCell: summariseKeystrokes(runs.map((r) => r.priceCell)),
  };
}

export async function runEditorBenchmark(
  browser: Browser,
  origin: string,
  rounds: number,
  log: (line: string) => void,
): Promise<EditorFigures> {
  const runs = EDITOR_SIZES.map(() => [] as EditorRun[]);
  const control: KeystrokeFigures[] = [];
  const importCell: KeystrokeFigures[] = [];
  const slow = { large: [] as EditorRun[], importCell: [] as KeystrokeFigures[], control: [] as KeystrokeFigures[] };
  const largestSize = EDITOR_SIZES[EDITOR_SIZES.length - 1] ?? { attributes: 20, options: 25 };
  // One unmeasured session first: the browser's own first-run costs would fall on whichever came first.
  const warmUp = EDITOR_SIZES[0] ?? { attributes: 1, options: 1 };
  await withRetry('warm-up', () => editorSession(browser, origin, warmUp), log);
  for (let r = 0; r < rounds; r += 1) {
    for (const [i, size] of EDITOR_SIZES.entries()) {
      log(`  round ${r + 1}/${rounds}, ${sizeLabel(size)}`);
      runs[i]?.push(await withRetry(sizeLabel(size), () => editorSession(browser, origin, size), log));
    }
    control.push(await withRetry('control', () => controlSession(browser, origin), log));
    importCell.push(await withRetry('import grid', () => importGridSession(browser, origin), log));
    log(`  round ${r + 1}/${rounds}, CPU ${SLOW_CPU_RATE}× slower`);
    slow.large.push(
      await withRetry(`${sizeLabel(largestSize)}, slow CPU`, () => editorSession(browser, origin, largestSize, SLOW_CPU_RATE), log),
    );
    slow.importCell.push(await withRetry('import grid, slow CPU', () => importGridSession(browser, origin, SLOW_CPU_RATE), log));
    slow.control.push(await withRetry('control, slow CPU', () => controlSession(browser, origin, undefined, SLOW_CPU_RATE), log));
  }
  const sizes = EDITOR_SIZES.map((size, i) => summarise(size, runs[i] ?? []));
  const [smallest, largest] = [sizes[0], sizes[sizes.length - 1]];
  const ratios: Record<string, number> = {};
  if (smallest && largest) {
    for (const name of TIMINGS) ratios[name] = round(ratio(largest[name], smallest[name]), 2);
    for (const field of ['optionName', 'priceCell'] as const) {
      ratios[`${field}.paintP50`] = round(ratio(largest[field].paintP50, smallest[field].paintP50), 2);
      ratios[`${field}.paintP95`] = round(ratio(largest[field].paintP95, smallest[field].paintP95), 2);
      // Only when both were reported: under 16 ms has no value to divide by.
      ratios[`${field}.eventP95`] = round(ratio(largest[field].eventP95 ?? Number.NaN, smallest[field].eventP95 ?? Number.NaN), 2);
    }
  }
  return {
    sizes,
    control: summariseKeystrokes(control),
    importCell: summariseKeystrokes(importCell),
    slowCpu: {
      cpuRate: SLOW_CPU_RATE,
      optionName: summariseKeystrokes(slow.large.map((run) => run.optionName)),
      priceCell: summariseKeystrokes(slow.large.map((run) => run.priceCell)),
      importCell: summariseKeystrokes(slow.importCell),
      control: summariseKeystrokes(slow.control),
    },
    ratioLargestToSmallest: ratios,
  };
}
