/**
 * Pure logic of the spreadsheet-like price grid: clipboard blocks and keyboard movement.
 */

/**
 * Splits text copied from Excel or Google Sheets into rows of cells (tab-separated columns,
 * newline-separated rows). A trailing newline (Excel adds one) makes no extra row; cells quoted by
 * Sheets lose their quotes.
 */
export function parseClipboardBlock(text: string): string[][] {
  const normalised = text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
  return normalised.split('\n').map((line) =>
    line.split('\t').map((cell) => {
      const trimmed = cell.trim();
      return trimmed.length >= 2 && trimmed.startsWith('"') && trimmed.endsWith('"') ? trimmed.slice(1, -1).replace(/""/g, '"') : cell;
    }),
  );
}

/** True when pasted text is a block (more than one cell) rather than one value. */
export function isBlock(text: string): boolean {
  return /[\t\n\r]/.test(text.replace(/\r?\n$/, ''));
}

export interface PlacedCell {
  row: number;
  col: number;
  value: string;
}

/** Places a block with its top-left at (row, col); what falls outside the grid is counted, not placed. */
export function placeBlock(
  block: readonly (readonly string[])[],
  row: number,
  col: number,
  rows: number,
  cols: number,
): { cells: PlacedCell[]; clipped: number } {
  const cells: PlacedCell[] = [];
  let clipped = 0;
  block.forEach((line, r) => {
    line.forEach((value, c) => {
      const targetRow = row + r;
      const targetCol = col + c;
      if (targetRow < rows && targetCol < cols) cells.push({ row: targetRow, col: targetCol, value });
      else clipped += 1;
    });
  });
  return { cells, clipped };
}

export interface KeyContext {
  key: string;
  shiftKey: boolean;
  /** Caret is at the start (and no selection), so Left may leave the cell. */
  atStart: boolean;
  /** Caret is at the end (and no selection), so Right may leave the cell. */
  atEnd: boolean;
}

/**
 * Where a key moves the focus from (row, col), as in a spreadsheet: arrows move (Left and Right once
 * the caret is at the edge of the text), Enter moves down and Shift+Enter up. Null: the key is not
 * the grid's (Tab keeps the browser's order, which is row by row).
 */
export function moveTarget(ctx: KeyContext, row: number, col: number, rows: number, cols: number): { row: number; col: number } | null {
  const clampRow = (r: number) => Math.min(Math.max(r, 0), rows - 1);
  const clampCol = (c: number) => Math.min(Math.max(c, 0), cols - 1);
  switch (ctx.key) {
    case 'ArrowUp':
      return { row: clampRow(row - 1), col };
    case 'ArrowDown':
      return { row: clampRow(row + 1), col };
    case 'ArrowLeft':
      return ctx.atStart ? { row, col: clampCol(col - 1) } : null;
    case 'ArrowRight':
      return ctx.atEnd ? { row, col: clampCol(col + 1) } : null;
    case 'Enter':
      return { row: clampRow(row + (ctx.shiftKey ? -1 : 1)), col };
    default:
      return null;
  }
}
