/**
 * The rows a person has ticked for a bulk action: by case id, so a row stays ticked while the list scrolls
 * and its pages come and go. Shift with a click (or Shift+Space) ticks or unticks every row from the last
 * one ticked, as the row clicked; the header's box ticks every row read, or none.
 */
import { useState } from 'react';
import { CASE_WORK_MAX_CASES } from '@/contract/case-work';
import type { InboxRows } from './inbox-rows';

/** At most this many cases in one bulk change: what one change of the team's work takes. */
export const CASE_WORK_LIMIT = CASE_WORK_MAX_CASES;

/** The ids of rows `from` to `to` (either order) that are here. */
export function idsBetween(rowAt: InboxRows['rowAt'], from: number, to: number): string[] {
  const ids: string[] = [];
  for (let i = Math.min(from, to); i <= Math.max(from, to); i += 1) {
    const row = rowAt(i);
    if (row) ids.push(row.id);
  }
  return ids;
}

/** `selected` after row `index` is clicked; `anchor` the row last clicked (null: none). */
export function toggledSelection(
  selected: ReadonlySet<string>,
  rowAt: InboxRows['rowAt'],
  index: number,
  anchor: number | null,
  extend: boolean,
): Set<string> {
  const row = rowAt(index);
  const next = new Set(selected);
  if (!row) return next;
  const tick = !selected.has(row.id);
  const ids = extend && anchor !== null ? idsBetween(rowAt, anchor, index) : [row.id];
  for (const id of ids) {
    if (tick) next.add(id);
    else next.delete(id);
  }
  return next;
}

export function useSelection(rows: Pick<InboxRows, 'rowAt' | 'loaded'>) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [anchor, setAnchor] = useState<number | null>(null);
  const loadedSelected = rows.loaded.reduce((n, row) => n + (selected.has(row.id) ? 1 : 0), 0);
  const allState: 'all' | 'some' | 'none' = loadedSelected === 0 ? 'none' : loadedSelected === rows.loaded.length ? 'all' : 'some';
  return {
    selected,
    allState,
    toggle: (index: number, extend: boolean) => {
      setSelected(toggledSelection(selected, rows.rowAt, index, anchor, extend));
      setAnchor(index);
    },
    toggleAll: () => setSelected(allState === 'all' ? new Set() : new Set(rows.loaded.map((row) => row.id))),
    clear: () => setSelected(new Set()),
  };
}
