/**
 * (c) of the inbox section, in Chromium: the inbox screen on the 20,000-case form.
 */
import type { RunningProcess } from './server-process';

export interface InboxScreenFigures {
  runs: number;
}

export function runInboxScreenBenchmark(
  _distDir: string,
  _sandbox: RunningProcess,
  _rounds: number,
  _log: (line: string) => void,
): Promise<InboxScreenFigures | { notMeasured: string }> {
  return Promise.resolve({ notMeasured: 'the inbox screen is not part of this build yet' });
}

/** The screen's rows of the bench's table. */
export function inboxScreenRows(area: string, figures: InboxScreenFigures): [string, string, string, string][] {
  return [[area, 'In Chromium', `${figures.runs} runs`, '']];
}
