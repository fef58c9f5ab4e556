/**
 * Keystroke latency from one typing session, two ways: the probe's own keydown → next paint time for
 * every key, and the Event Timing API's durations, which only exist for keys of 16 ms or more.
 */
import type { TypingRecord } from './page-probes';
import { median, percentile, round } from './stats';

/** About 700 characters a minute between keys: a fast typist, and longer than a frame. */
export const KEY_DELAY_MS = 40;

/** The Event Timing API never reports anything quicker than this. */
export const EVENT_TIMING_FLOOR_MS = 16;

export interface KeystrokeFigures {
  keys: number;
  /** Probe: keydown timestamp → next paint (main thread), every key. */
  paintP50: number;
  paintP95: number;
  /** Event Timing: the longest entry of each keystroke's interaction; null means under 16 ms. */
  eventP50: number | null;
  eventP95: number | null;
  /** Keystrokes that had an Event Timing entry, i.e. took 16 ms or more. */
  eventReported: number;
  /** The main thread's busy time per key (Chromium's TaskDuration), where it was measured. */
  taskMsPerKey?: number;
}

export function keystrokeFigures(record: TypingRecord): KeystrokeFigures {
  const byInteraction = new Map<number, number>();
  for (const event of record.events) {
    if (event.interactionId === 0) continue;
    byInteraction.set(event.interactionId, Math.max(byInteraction.get(event.interactionId) ?? 0, event.duration));
  }
  const reported = [...byInteraction.values()];
  // Keys without an entry were quicker than the floor: counted as 0, shown as "< 16".
  const all = [...reported, ...Array.from({ length: Math.max(record.keys.length - reported.length, 0) }, () => 0)];
  const belowFloor = (value: number) => (value < EVENT_TIMING_FLOOR_MS ? null : value);
  return {
    keys: record.keys.length,
    paintP50: percentile(record.keys, 50),
    paintP95: percentile(record.keys, 95),
    eventP50: belowFloor(percentile(all, 50)),
    eventP95: belowFloor(percentile(all, 95)),
    eventReported: reported.length,
  };
}

/** Median of Event Timing figures, where null (under 16 ms) sorts below every reported value. */
export function medianEventFigure(values: readonly (number | null)[]): number | null {
  const sorted = values.map((v) => v ?? 0).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  return value < EVENT_TIMING_FLOOR_MS ? null : value;
}

export type KeystrokeSummary = Omit<KeystrokeFigures, 'eventReported'> & {
  /** Share of keystrokes the Event Timing API reported (16 ms or more). */
  eventReportedShare: number;
};

/** Medians over several typing sessions. */
export function summariseKeystrokes(runs: readonly KeystrokeFigures[]): KeystrokeSummary {
  const keys = runs.reduce((n, r) => n + r.keys, 0);
  return {
    keys: Math.round(keys / Math.max(runs.length, 1)),
    paintP50: round(median(runs.map((r) => r.paintP50))),
    paintP95: round(median(runs.map((r) => r.paintP95))),
    eventP50: medianEventFigure(runs.map((r) => r.eventP50)),
    eventP95: medianEventFigure(runs.map((r) => r.eventP95)),
    eventReportedShare: round(runs.reduce((n, r) => n + r.eventReported, 0) / Math.max(keys, 1), 2),
    ...(runs.every((r) => r.taskMsPerKey !== undefined) && runs.length > 0
      ? { taskMsPerKey: round(median(runs.map((r) => r.taskMsPerKey ?? 0))) }
      : {}),
  };
}
