/**
 * What every answer that streams a file (the activity record's export, a form's cases' export) needs: waiting
 * for the socket without leaving listeners behind, and CSV cells a spreadsheet cannot run as formulas.
 */
import type { ServerResponse } from 'node:http';

/**
 * A cell that a spreadsheet would run as a formula (it begins with =, +, - or @, or a tab or carriage return,
 * which some spreadsheets skip before reading one) gets a leading apostrophe in the CSV. papaparse's own
 * `escapeFormulae: true` uses /^[=+\-@\t\r].*$/, which misses such a cell when it holds a line break (`.`
 * stops at one), so the pattern is given to it without the tail.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Resolves when the socket takes more, or the browser has gone; both listeners are removed either way (a
 * race of two `once` would leave the loser's listeners behind, one pair per chunk of a long file).
 */
export function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
