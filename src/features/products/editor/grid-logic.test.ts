import { describe, expect, it } from 'vitest';
import { isBlock, moveTarget, parseClipboardBlock, placeBlock } from './grid-logic';

describe('parseClipboardBlock', () => {
  it('splits rows and columns as Excel copies them, ignoring the trailing newline', () => {
    expect(parseClipboardBlock('1.00\t2.00\r\n3.00\t4.00\r\n')).toEqual([
      ['1.00', '2.00'],
      ['3.00', '4.00'],
    ]);
  });
  it('keeps empty cells in place and unquotes Google Sheets cells', () => {
    expect(parseClipboardBlock('"1,299.00"\t\t5\n7')).toEqual([['1,299.00', '', '5'], ['7']]);
  });
});

describe('isBlock', () => {
  it('tells a block from one value with or without a trailing newline', () => {
    expect(isBlock('12.50')).toBe(false);
    expect(isBlock('12.50\n')).toBe(false);
    expect(isBlock('1\t2')).toBe(true);
    expect(isBlock('1\n2')).toBe(true);
  });
});

describe('placeBlock', () => {
  it('fills from the starting cell and counts what falls outside', () => {
    const { cells, clipped } = placeBlock(
      [
        ['a', 'b', 'c'],
        ['d', 'e', 'f'],
      ],
      5,
      2,
      6,
      4,
    );
    expect(cells).toEqual([
      { row: 5, col: 2, value: 'a' },
      { row: 5, col: 3, value: 'b' },
    ]);
    expect(clipped).toBe(4);
  });
});

describe('moveTarget', () => {
  const ctx = (key: string, extra: Partial<{ shiftKey: boolean; atStart: boolean; atEnd: boolean }> = {}) => ({
    key,
    shiftKey: false,
    atStart: true,
    atEnd: true,
    ...extra,
  });
  it('moves with arrows and stays inside the grid', () => {
    expect(moveTarget(ctx('ArrowDown'), 0, 0, 6, 4)).toEqual({ row: 1, col: 0 });
    expect(moveTarget(ctx('ArrowUp'), 0, 0, 6, 4)).toEqual({ row: 0, col: 0 });
    expect(moveTarget(ctx('ArrowRight'), 2, 3, 6, 4)).toEqual({ row: 2, col: 3 });
  });
  it('lets Left and Right move the caret until it reaches the edge of the text', () => {
    expect(moveTarget(ctx('ArrowLeft', { atStart: false }), 1, 1, 6, 4)).toBeNull();
    expect(moveTarget(ctx('ArrowRight', { atEnd: false }), 1, 1, 6, 4)).toBeNull();
    expect(moveTarget(ctx('ArrowLeft'), 1, 1, 6, 4)).toEqual({ row: 1, col: 0 });
  });
  it('moves down on Enter and up on Shift+Enter, and leaves Tab to the browser', () => {
    expect(moveTarget(ctx('Enter'), 1, 2, 6, 4)).toEqual({ row: 2, col: 2 });
    expect(moveTarget(ctx('Enter', { shiftKey: true }), 1, 2, 6, 4)).toEqual({ row: 0, col: 2 });
    expect(moveTarget(ctx('Tab'), 1, 2, 6, 4)).toBeNull();
  });
});
